// migrate(): a v1 file opened by load_legacy() and written by the exporter, which copies every
// sample's bytes range to range and writes the TACO 2.0 tables, __meta__ and COLLECTION.json.
#include <string>

#include "convert/export_whole.hpp"
#include "taco/errors.hpp"
#include "taco/legacy.hpp"

namespace taco {
namespace {

// TACO 2.0 trees are position-isomorphic (spec §5.4, PIT): every FOLDER of level d-1 (with the
// same id, below level 1) has the same children, in the same order. v1 never required it, so a
// v1 file may hold nested tortillas that differ: refused here, naming two that differ, rather
// than written as a dataset `taco validate` would reject.
void check_position_isomorphic(const Dataset& v1, const std::string& name) {
    for (size_t d = 1; d < v1.level_count(); ++d) {
        const std::string up = "level" + std::to_string(d - 1);
        const std::string here = "level" + std::to_string(d);
        const std::string parent_path = d == 1 ? "id || '/'" : "\"internal:relative_path\"";
        const std::string pattern = d == 1 ? "''" : "id";
        const std::string sql =
            "WITH kids AS (SELECT regexp_replace(\"internal:relative_path\", '[^/]+/?$', '') AS "
            "parent, string_agg(type || ' ' || id, ', ' ORDER BY \"internal:current_id\") AS "
            "children FROM " +
            here + " GROUP BY 1), parents AS (SELECT " + parent_path + " AS parent, " + pattern +
            " AS pattern, \"internal:current_id\" AS pos FROM " + up +
            " WHERE type = 'FOLDER'), sig AS (SELECT p.parent, p.pattern, p.pos, "
            "coalesce(k.children, '') AS children FROM parents p LEFT JOIN kids k USING "
            "(parent)), first AS (SELECT DISTINCT ON (pattern) pattern, parent, children FROM "
            "sig ORDER BY pattern, pos) SELECT a.parent AS a_parent, a.children AS a_children, "
            "f.parent AS f_parent, f.children AS f_children FROM sig a JOIN first f USING "
            "(pattern) WHERE a.children <> f.children ORDER BY a.pos LIMIT 1";
        const DataFrame bad = v1.sql(sql).data();
        if (bad.rows() == 0) continue;
        auto text = [&](size_t col) {
            const Value v = bad.value(0, col);
            return v.is_null() ? std::string() : v.as_string();
        };
        auto folder = [](std::string p) {
            if (!p.empty() && p.back() == '/') p.pop_back();
            return "'" + p + "'";
        };
        throw FormatError(
            name +
            ": cannot migrate: TACO 2.0 needs every FOLDER at one level to hold the same "
            "children (a position-isomorphic tree, spec §5.4), but nested tortilla " +
            folder(text(0)) + " holds [" + text(1) + "] while " + folder(text(2)) + " holds [" +
            text(3) +
            "]. The file stays readable with load(); migrate its parts separately or "
            "rewrite them with the same sample ids");
    }
}

}  // namespace

ExportResult migrate(const std::filesystem::path& input, const std::filesystem::path& output,
                     const ExportOptions& options) {
    if (!is_legacy_v1_file(input)) {
        throw FormatError(input.string() +
                          ": not a legacy v1 file; expected a Tortilla 0.5 .tortilla or TACO 0.2 "
                          ".taco file (magic '#y' or 'WX')");
    }
    const Dataset v1 = load_legacy(input);
    check_position_isomorphic(v1, input.string());
    return export_whole(v1, output, options);
}

}  // namespace taco
