// `taco validate` of a legacy v1 file (Tortilla 0.5 `.tortilla`, TACO 0.2 `.taco`): what v1
// defines, not TACO 2.0. load_legacy() already checks the header, each FOOTER, every sample's
// range inside its DATA pile and the nested tortillas (docs/FORMAT-DECISIONS.md, "Legacy v1");
// its first error becomes the finding. On a file that loads, the per-sample checks that cost one
// query per level follow: every sample has an id, and ids are unique among siblings (what
// read(id) and migrate rely on).
#include <string>

#include "taco/errors.hpp"
#include "taco/legacy.hpp"
#include "validate/validate_checks.hpp"

namespace taco::format {
namespace {

constexpr const char* kLegacyFinding = "legacy.v1";

void check_ids(const Dataset& ds, size_t d, FindingSink& sink, const std::string& where) {
    const Dataset level = d == 0 ? ds : ds.level(d);
    const std::string in = "level " + std::to_string(d) + " of the v1 file";
    const DataFrame missing =
        level.sql("SELECT count(*) AS n FROM data WHERE id IS NULL OR id = ''").data_raw();
    if (const int64_t n = missing.get_int(0, 0); n > 0) {
        sink.error("legacy.v1.id", where,
                   in + ": " + std::to_string(n) + " sample" + (n == 1 ? " has" : "s have") +
                       " no id (expected a non-empty `tortilla:id`)");
    }
    // Level 0's internal:parent_id is each row's own index (as in TACO 2.0): its siblings are
    // the whole level. Below, siblings share a parent.
    const std::string siblings = d == 0 ? "id" : "\"internal:parent_id\", id";
    const DataFrame dup =
        level
            .sql(
                "SELECT id, count(*) AS n FROM data WHERE id IS NOT NULL AND "
                "id <> '' GROUP BY " +
                siblings + " HAVING count(*) > 1 ORDER BY min(\"internal:current_id\")")
            .data_raw();
    for (size_t r = 0; r < dup.rows(); ++r) {
        sink.error("legacy.v1.id", where,
                   in + ": id '" + std::string(dup.get_string(r, 0)) + "' appears " +
                       std::to_string(dup.get_int(r, 1)) +
                       " times under the same parent (expected ids unique among siblings)");
    }
}

}  // namespace

void validate_legacy_v1(const std::filesystem::path& path, FindingSink& sink) {
    const std::string where = path.string();
    std::optional<Dataset> ds;
    try {
        ds = load_legacy(path);
    } catch (const Error& e) {
        sink.error(kLegacyFinding, where, e.what());
        return;
    }
    for (size_t d = 0; d < ds->level_count(); ++d) check_ids(*ds, d, sink, where);
    sink.info(kLegacyFinding, where,
              "a legacy v1 file (Tortilla 0.5 / TACO 0.2): checked as v1 defines it (header, "
              "FOOTERs, every sample inside the file, nested tortillas, ids); tacocore reads it "
              "read-only, `taco migrate` rewrites it as TACO 2.0");
}

}  // namespace taco::format
