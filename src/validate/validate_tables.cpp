// Level tables: loading, column checks and row checks (FORMAT.md §4.2, spec §5.5.1, §8.3).
#include "validate/validate_tables.hpp"

#include <algorithm>
#include <unordered_set>

#include "model/column_names.hpp"
#include "model/shorten.hpp"
#include "taco/errors.hpp"

namespace taco::format {
namespace {

using metadata::quote_identifier;
using metadata::quote_literal;

constexpr std::string_view kPaddingPrefix = "__TACOPAD__";

bool is_integer_type(const std::string& t) {
    return t == "BIGINT" || t == "INTEGER" || t == "SMALLINT" || t == "TINYINT" || t == "UBIGINT" ||
           t == "UINTEGER" || t == "USMALLINT" || t == "UTINYINT" || t == "HUGEINT";
}

// The columns of `parquet` whose type has no TACO value type (value.hpp), so that readers
// convert them: decided by the reader's own binding (metadata::columns_read_through_a_cast),
// which knows DATE, TIMESTAMPTZ, DECIMAL, STRUCT, MAP and fixed-size lists as TACO types and
// looks inside nested ones. nullopt when DuckDB cannot bind the file (reported elsewhere).
std::optional<std::unordered_set<std::string>> converted_columns(metadata::DuckSession& db,
                                                                 const std::string& parquet) {
    try {
        const std::vector<std::string> names = metadata::columns_read_through_a_cast(
            db, "SELECT * FROM read_parquet(" + quote_literal(parquet) + ")");
        return std::unordered_set<std::string>(names.begin(), names.end());
    } catch (const QueryError&) {
        return std::nullopt;
    }
}

std::string parquet_error(metadata::DuckSession& db, const std::string& file) {
    try {
        db.exec("SELECT * FROM parquet_schema(" + quote_literal(file) + ")");
    } catch (const QueryError& e) {
        return e.what();
    }
    return "unknown error";
}

}  // namespace

std::string_view LevelRows::id_of(size_t r) const {
    return id && !rows->is_null(r, *id) ? rows->get_string(r, *id) : std::string_view();
}

std::string_view LevelRows::type_of(size_t r) const {
    return type && !rows->is_null(r, *type) ? rows->get_string(r, *type) : std::string_view();
}

bool LevelRows::is_padding(size_t r) const {
    return id_of(r).substr(0, kPaddingPrefix.size()) == kPaddingPrefix;
}

std::string LevelRows::where(size_t r) const {
    std::string out = name + " row " + std::to_string(r);
    if (r < paths.size() && !paths[r].empty()) {
        out += " (" + shorten(paths[r]) + ")";
    } else if (!id_of(r).empty()) {
        out += " (" + shorten(id_of(r)) + ")";
    }
    return out;
}

bool load_level(TableChecks& t, LevelRows& L, size_t index) {
    const auto schema = parquet_columns(t.db, {L.parquet});
    if (!schema[0]) {
        t.sink.error("table.unreadable", L.name,
                     "not a readable Parquet file: " + parquet_error(t.db, L.parquet));
        return false;
    }
    L.columns = *schema[0];
    const auto converted = converted_columns(t.db, L.parquet);
    std::unordered_set<std::string> seen;
    for (const auto& [name, type] : L.columns) {
        if (!seen.insert(name).second) {
            t.sink.error("table.column", L.name, "column '" + name + "' appears more than once");
        }
        if (!is_internal_column(name) && name != "id" && name != "type" && converted &&
            converted->count(name)) {
            t.sink.warning("table.column-type", L.name,
                           "column '" + name + "' has type " + type +
                               ", which has no TACO metadata equivalent (readers convert it)");
        }
    }

    // (column, expected kind, whether its absence is an error / a warning / informational)
    struct Want {
        const char* name;
        bool text;
        Severity missing;
        const char* why;
        std::optional<size_t> LevelRows::*slot;
    };
    const bool zip = t.format == ContainerFormat::Zip;
    std::vector<Want> wants = {
        {"id", true, Severity::Error, "every sample needs an id", &LevelRows::id},
        {"type", true, Severity::Error, "every sample needs a type", &LevelRows::type},
        {"internal:current_id", false, Severity::Info,
         "written before tacotoolbox 0.21; readers fall back to row positions",
         &LevelRows::current_id},
        {"internal:parent_id", false, Severity::Error,
         index == 0 ? "spec §6.2: every level table has it; at level 0 it is the row's position"
                    : "links each row to its parent in the previous level",
         &LevelRows::parent_id},
    };
    if (zip) {
        wants.push_back({"internal:offset", false, Severity::Error,
                         "locates each sample inside the ZIP", &LevelRows::offset});
        wants.push_back({"internal:size", false, Severity::Error,
                         "locates each sample inside the ZIP", &LevelRows::size});
    }
    if (index > 0) {
        wants.push_back({"internal:relative_path", true, zip ? Severity::Warning : Severity::Error,
                         "locates each nested sample under DATA/", &LevelRows::relative_path});
    }

    std::string select;
    size_t position = 0;
    for (const Want& w : wants) {
        const std::string* type = column_type_of(L.columns, w.name);
        if (!type) {
            t.sink.add(w.missing, "table.column", L.name,
                       std::string("no column '") + w.name + "' (" + w.why + ")");
            continue;
        }
        const bool ok = w.text ? *type == "VARCHAR" : is_integer_type(*type);
        if (!ok) {
            t.sink.error("table.column-type", L.name,
                         std::string("column '") + w.name + "' has type " + *type + ", expected " +
                             (w.text ? "string (VARCHAR)" : "int64 (BIGINT)"));
            continue;
        }
        const std::string ref = quote_identifier(w.name);
        select += (select.empty() ? "" : ", ") + (w.text ? ref : "CAST(" + ref + " AS BIGINT)");
        L.*(w.slot) = position++;
    }
    if (!L.id || !L.type) return false;
    try {
        L.rows = metadata::ResultTable::fetch(
            t.db, "SELECT " + select + " FROM read_parquet(" + quote_literal(L.parquet) + ")");
    } catch (const QueryError& e) {
        t.sink.error("table.unreadable", L.name, std::string("cannot read the rows: ") + e.what());
        return false;
    }
    return true;
}

namespace {

bool valid_id_chars(std::string_view id) {
    return id.find_first_of("/\\:") == std::string_view::npos &&
           id.find('\0') == std::string_view::npos && id != "." && id != "..";
}

// Readers hide every row whose id starts with __TACOPAD__ (FORMAT.md §4.4), so anything but
// the padding tacotoolbox writes (`__TACOPAD__<n>`, an empty FILE) would vanish from every view.
void check_padding_row(TableChecks& t, const LevelRows& L, size_t r, std::string_view id) {
    const std::string_view n = id.substr(kPaddingPrefix.size());
    const bool digits =
        !n.empty() && std::all_of(n.begin(), n.end(), [](char c) { return c >= '0' && c <= '9'; });
    std::string why;
    if (!digits) {
        why = "a padding id is __TACOPAD__ and a number";
    } else if (L.type_of(r) != "FILE") {
        why = "padding stands in for a missing FILE and is a FILE itself";
    } else if (L.size && !L.rows->is_null(r, *L.size) && L.rows->get_int(r, *L.size) != 0) {
        why =
            "padding is empty, but internal:size is " + std::to_string(L.rows->get_int(r, *L.size));
    }
    if (!why.empty()) {
        t.sink.error("row.padding", L.where(r),
                     "id '" + shorten(id) + "' marks padding, which every reader hides, but " +
                         why + "; a real sample needs an id that does not start with '__'",
                     L.name);
    }
}

void check_row_basics(TableChecks& t, const LevelRows& L, size_t r) {
    const std::string_view id = L.id_of(r);
    if (L.rows->is_null(r, *L.id) || id.empty()) {
        t.sink.error("row.id", L.where(r), "the id is empty or null", L.name);
    } else if (!valid_id_chars(id)) {
        t.sink.error("row.id", L.where(r),
                     "id '" + shorten(id) + "' contains '/', '\\' or ':', or is '.' or '..'",
                     L.name);
    } else if (id.substr(0, 2) == "__" && !L.is_padding(r)) {
        t.sink.error("row.id", L.where(r),
                     "id '" + shorten(id) + "' starts with '__', which is reserved for padding",
                     L.name);
    } else if (L.is_padding(r)) {
        check_padding_row(t, L, r, id);
    }
    const std::string_view type = L.type_of(r);
    if (type != "FILE" && type != "FOLDER") {
        t.sink.error("row.type", L.where(r),
                     "type is '" + std::string(type) + "', expected FILE or FOLDER", L.name);
    }
    if (L.current_id) {
        if (L.rows->is_null(r, *L.current_id) ||
            L.rows->get_int(r, *L.current_id) != static_cast<int64_t>(r)) {
            t.sink.error("row.current-id", L.where(r),
                         "internal:current_id is " +
                             (L.rows->is_null(r, *L.current_id)
                                  ? std::string("null")
                                  : std::to_string(L.rows->get_int(r, *L.current_id))) +
                             ", expected the row position " + std::to_string(r),
                         L.name);
        }
    }
}

// Sibling ids must be unique; `rows` are the siblings.
void check_unique_ids(TableChecks& t, const LevelRows& L, const uint32_t* rows, size_t n,
                      std::unordered_set<std::string_view>& seen) {
    seen.clear();
    for (size_t k = 0; k < n; ++k) {
        const std::string_view id = L.id_of(rows[k]);
        if (id.empty()) continue;
        if (!seen.insert(id).second) {
            t.sink.error("row.duplicate-id", L.where(rows[k]),
                         "id '" + shorten(id) + "' is used by an earlier sibling", L.name);
        }
    }
}

}  // namespace

void check_level_rows(TableChecks& t) {
    std::unordered_set<std::string_view> seen;
    for (size_t d = 0; d < t.levels.size(); ++d) {
        LevelRows& L = t.levels[d];
        if (!L.rows) break;
        const size_t n = L.size_rows();
        L.paths.assign(n, {});
        LevelRows* parent = d > 0 ? &t.levels[d - 1] : nullptr;
        std::vector<uint32_t> parent_of(n, UINT32_MAX);
        int64_t previous = -1;
        for (size_t r = 0; r < n; ++r) {
            check_row_basics(t, L, r);
            std::string_view id = L.id_of(r);
            if (!parent) {
                L.paths[r] = std::string(id);
                continue;
            }
            if (!L.parent_id || L.rows->is_null(r, *L.parent_id)) {
                if (L.parent_id)
                    t.sink.error("row.parent", L.where(r), "internal:parent_id is null", L.name);
                L.paths[r] = std::string(id);
                continue;
            }
            const int64_t p = L.rows->get_int(r, *L.parent_id);
            if (p < 0 || static_cast<uint64_t>(p) >= parent->size_rows()) {
                t.sink.error("row.parent", L.where(r),
                             "internal:parent_id " + std::to_string(p) + " is not a row of " +
                                 parent->name + " (0.." + std::to_string(parent->size_rows()) + ")",
                             L.name);
                L.paths[r] = std::string(id);
                continue;
            }
            if (!parent->is_folder(static_cast<size_t>(p))) {
                t.sink.error("row.parent", L.where(r),
                             "internal:parent_id " + std::to_string(p) + " is " + parent->where(p) +
                                 ", which is not a FOLDER",
                             L.name);
            }
            if (p < previous) {
                t.sink.error("row.order", L.where(r),
                             "rows must be grouped by parent in parent order, but parent " +
                                 std::to_string(p) + " follows parent " + std::to_string(previous),
                             L.name);
            }
            previous = std::max(previous, p);
            parent_of[r] = static_cast<uint32_t>(p);
            L.paths[r] = parent->paths[p] + "/" + std::string(id);
            if (L.relative_path) {
                const std::string expected = L.paths[r] + (L.is_folder(r) ? "/" : "");
                const std::string_view actual = L.rows->is_null(r, *L.relative_path)
                                                    ? std::string_view()
                                                    : L.rows->get_string(r, *L.relative_path);
                if (actual != expected) {
                    t.sink.error("row.relative-path", L.where(r),
                                 "internal:relative_path is '" + std::string(actual) +
                                     "', expected '" + expected + "'",
                                 L.name);
                }
            }
        }
        if (!parent) {
            std::vector<uint32_t> all(n);
            for (size_t r = 0; r < n; ++r) all[r] = static_cast<uint32_t>(r);
            check_unique_ids(t, L, all.data(), n, seen);
            continue;
        }
        // Child index of the parent level (CSR), in row order within each parent.
        const size_t pn = parent->size_rows();
        parent->child_begin.assign(pn + 1, 0);
        for (size_t r = 0; r < n; ++r)
            if (parent_of[r] != UINT32_MAX) ++parent->child_begin[parent_of[r] + 1];
        for (size_t p = 0; p < pn; ++p) parent->child_begin[p + 1] += parent->child_begin[p];
        parent->children.assign(parent->child_begin[pn], 0);
        std::vector<uint32_t> fill(parent->child_begin.begin(), parent->child_begin.end() - 1);
        for (size_t r = 0; r < n; ++r)
            if (parent_of[r] != UINT32_MAX)
                parent->children[fill[parent_of[r]]++] = static_cast<uint32_t>(r);
        for (size_t p = 0; p < pn; ++p) {
            const uint32_t count = parent->child_begin[p + 1] - parent->child_begin[p];
            if (parent->is_folder(p) && count == 0) {
                t.sink.error("row.children", parent->where(p),
                             "FOLDER has no children in " + L.name, parent->name);
            } else if (!parent->is_folder(p) && count > 0) {
                t.sink.error("row.children", parent->where(p),
                             "a " + std::string(parent->type_of(p)) + " sample has " +
                                 std::to_string(count) + " children in " + L.name,
                             parent->name);
            }
            check_unique_ids(t, L, parent->children.data() + parent->child_begin[p], count, seen);
        }
    }
    // FOLDER rows of the deepest loaded level have nowhere to keep their children.
    for (size_t d = 0; d < t.levels.size(); ++d) {
        LevelRows& L = t.levels[d];
        if (!L.rows) break;
        if (d + 1 < t.levels.size()) continue;  // an unreadable next level was reported already
        for (size_t r = 0; r < L.size_rows(); ++r) {
            if (L.is_folder(r)) {
                t.sink.error("row.children", L.where(r),
                             "FOLDER sample at the deepest level: there is no level " +
                                 std::to_string(d + 1) + " table for its children",
                             L.name);
            }
        }
    }
}

}  // namespace taco::format
