// PIT-1 over the consolidated tables, and COLLECTION.json's taco:pit_schema / taco:field_schema
// compared with what the tables hold (spec §5.4, FORMAT.md §5.4-§5.5).
#include <algorithm>

#include "model/decimal.hpp"
#include "validate/validate_tables.hpp"

namespace taco::format {
namespace {

// One position of the shared tree shape: the first sample seen there defines it.
struct ShapeNode {
    bool defined = false;
    std::string id;
    bool folder = false;
    std::string owner;  // path of the sample that defined it
    size_t child_count = SIZE_MAX;
    std::string count_owner;
    size_t first_child = 0;  // index of position 0 of its children in `nodes`
};

bool loaded(const TableChecks& t, size_t d) {
    return d < t.levels.size() && t.levels[d].rows;
}

bool has_children_index(const LevelRows& L) {
    return L.child_begin.size() == L.size_rows() + 1;
}

}  // namespace

void check_pit(TableChecks& t) {
    if (!loaded(t, 0)) return;
    const LevelRows& root = t.levels[0];
    std::optional<size_t> first;
    for (size_t r = 0; r < root.size_rows(); ++r) {
        // A type other than FILE or FOLDER is row.type's finding; comparing it here would only
        // repeat it on every other row.
        if (root.is_padding(r) || (root.type_of(r) != "FILE" && !root.is_folder(r))) continue;
        if (!first) {
            first = r;
        } else if (root.type_of(r) != root.type_of(*first)) {
            t.sink.error("pit.root-type", root.where(r),
                         "root sample is a " + std::string(root.type_of(r)) + " but " +
                             root.where(*first) + " is a " + std::string(root.type_of(*first)) +
                             " (all root samples must have one type)",
                         "pit");
        }
    }

    // Walk level by level; node_of[r] is the shape node of row r of the current level
    // (SIZE_MAX: padding or below a mismatch, not compared).
    std::vector<ShapeNode> nodes(1);
    std::vector<size_t> node_of(root.size_rows(), SIZE_MAX);
    for (size_t r = 0; r < root.size_rows(); ++r)
        if (!root.is_padding(r) && root.is_folder(r)) node_of[r] = 0;
    for (size_t d = 0; loaded(t, d + 1) && has_children_index(t.levels[d]); ++d) {
        const LevelRows& L = t.levels[d];
        const LevelRows& next = t.levels[d + 1];
        std::vector<size_t> next_node(next.size_rows(), SIZE_MAX);
        for (size_t r = 0; r < L.size_rows(); ++r) {
            if (node_of[r] == SIZE_MAX || !L.is_folder(r)) continue;
            const size_t count = L.child_begin[r + 1] - L.child_begin[r];
            const size_t k = node_of[r];
            if (nodes[k].child_count == SIZE_MAX) {
                nodes[k].child_count = count;
                nodes[k].count_owner = L.paths[r];
                nodes[k].first_child = nodes.size();
                nodes.resize(nodes.size() + count);
            } else if (nodes[k].child_count != count) {
                t.sink.error("pit.children", L.where(r),
                             "PIT-1: FOLDER has " + std::to_string(count) + " children, but '" +
                                 nodes[k].count_owner + "' at the same position has " +
                                 std::to_string(nodes[k].child_count),
                             "pit");
                continue;
            }
            for (size_t j = 0; j < count; ++j) {
                const size_t c = L.children[L.child_begin[r] + j];
                const size_t pos = nodes[k].first_child + j;
                if (next.is_padding(c)) {
                    // Padding stands in for a missing FILE, never for a FOLDER.
                    if (nodes[pos].defined && nodes[pos].folder) {
                        t.sink.error("pit.children", next.where(c),
                                     "PIT-1: padding at child position " + std::to_string(j) +
                                         ", where '" + nodes[pos].owner + "' is a FOLDER",
                                     "pit");
                    }
                    continue;
                }
                ShapeNode& n = nodes[pos];
                const bool folder = next.is_folder(c);
                if (!n.defined) {
                    n.defined = true;
                    n.id = std::string(next.id_of(c));
                    n.folder = folder;
                    n.owner = next.paths[c];
                } else if (n.id != next.id_of(c) || n.folder != folder) {
                    t.sink.error("pit.children", next.where(c),
                                 "PIT-1: child position " + std::to_string(j) + " holds " +
                                     std::string(next.type_of(c)) + " '" +
                                     std::string(next.id_of(c)) + "', but '" + n.owner + "' is " +
                                     (n.folder ? "FOLDER" : "FILE") + " '" + n.id +
                                     "' (samples at one position must have the same "
                                     "id and type under every root)",
                                 "pit");
                    continue;
                }
                next_node[c] = pos;
            }
        }
        node_of = std::move(next_node);
    }
}

namespace {

struct Group {
    size_t level = 0;  // level of the parent
    size_t parent = 0;
    size_t count = 0;
    size_t real = 0;
};

Group group_of(const LevelRows& L, const LevelRows& next, size_t level, size_t r) {
    Group g{level, r, L.child_begin[r + 1] - L.child_begin[r], 0};
    for (size_t k = L.child_begin[r]; k < L.child_begin[r + 1]; ++k)
        g.real += !next.is_padding(L.children[k]);
    return g;
}

// The pit schema the reference writer derives from the tables (FORMAT.md §5.4).
std::optional<PitSchema> expected_pit(const TableChecks& t) {
    PitSchema pit;
    const LevelRows& root = t.levels[0];
    pit.root_n = root.size_rows();
    pit.root_type = root.size_rows() ? std::string(root.type_of(0)) : "";
    std::vector<std::string> previous_folder_ids;
    for (size_t d = 1; loaded(t, d) && has_children_index(t.levels[d - 1]); ++d) {
        const LevelRows& parent = t.levels[d - 1];
        const LevelRows& L = t.levels[d];
        std::vector<std::vector<size_t>> parent_sets;
        if (d == 1) {
            parent_sets.emplace_back();
            for (size_t r = 0; r < parent.size_rows(); ++r)
                if (parent.is_folder(r)) parent_sets.back().push_back(r);
        } else {
            for (const auto& fid : previous_folder_ids) {
                parent_sets.emplace_back();
                for (size_t r = 0; r < parent.size_rows(); ++r)
                    if (parent.is_folder(r) && parent.id_of(r) == fid)
                        parent_sets.back().push_back(r);
                if (parent_sets.back().empty()) parent_sets.pop_back();
            }
        }
        std::vector<PitPattern> patterns;
        for (const auto& set : parent_sets) {
            if (set.empty()) continue;
            Group best;
            bool found = false;
            size_t total = 0;
            for (size_t r : set) {
                Group g = group_of(parent, L, d - 1, r);
                total += g.count;
                if (!found || g.real > best.real) best = g, found = true;
            }
            PitPattern p;
            p.n = d == 1 ? L.size_rows() : total;
            for (size_t k = parent.child_begin[best.parent];
                 k < parent.child_begin[best.parent + 1]; ++k) {
                const size_t c = parent.children[k];
                p.types.emplace_back(L.type_of(c));
                p.ids.emplace_back(L.id_of(c));
            }
            patterns.push_back(std::move(p));
        }
        if (patterns.empty()) break;
        previous_folder_ids.clear();
        for (size_t i = 0; i < patterns[0].ids.size(); ++i)
            if (patterns[0].types[i] == "FOLDER") previous_folder_ids.push_back(patterns[0].ids[i]);
        pit.hierarchy.push_back(std::move(patterns));
    }
    return pit;
}

std::string join(const std::vector<std::string>& v) {
    std::string out = "[";
    for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + v[i];
    return out + "]";
}

void compare_pit(TableChecks& t, const PitSchema& declared, const PitSchema& actual) {
    const std::string where = "COLLECTION.json taco:pit_schema";
    auto bad = [&](const std::string& what) {
        t.sink.error("collection.pit-schema", where, what, "pit_schema");
    };
    if (actual.root_n == 0) {
        t.sink.error("table.empty", "METADATA/level0.parquet",
                     "level 0 has no samples; spec §5.3: the root TORTILLA holds at least one "
                     "SAMPLE",
                     "pit_schema");
    } else if (declared.root_type != actual.root_type) {
        bad("root.type is " + declared.root_type + ", but level 0 starts with a " +
            actual.root_type);
    }
    if (declared.root_n != actual.root_n) {
        bad("root.n is " + std::to_string(declared.root_n) + ", but METADATA/level0.parquet has " +
            std::to_string(actual.root_n) + " rows");
    }
    if (declared.hierarchy.size() != actual.hierarchy.size()) {
        bad("the hierarchy describes " + std::to_string(declared.hierarchy.size()) +
            " level(s) below the root, the tables have " + std::to_string(actual.hierarchy.size()));
    }
    const size_t depth = std::min(declared.hierarchy.size(), actual.hierarchy.size());
    for (size_t d = 0; d < depth; ++d) {
        const auto& dp = declared.hierarchy[d];
        const auto& ap = actual.hierarchy[d];
        const std::string key = "hierarchy['" + std::to_string(d + 1) + "']";
        if (dp.size() != ap.size()) {
            bad(key + " has " + std::to_string(dp.size()) + " pattern(s), the tables give " +
                std::to_string(ap.size()));
            continue;
        }
        for (size_t i = 0; i < dp.size(); ++i) {
            const std::string pkey = key + "[" + std::to_string(i) + "]";
            if (dp[i].n != ap[i].n) {
                bad(pkey + ".n is " + std::to_string(dp[i].n) + ", the tables give " +
                    std::to_string(ap[i].n));
            }
            if (dp[i].ids != ap[i].ids || dp[i].types != ap[i].types) {
                bad(pkey + " lists ids " + join(dp[i].ids) + " of types " + join(dp[i].types) +
                    ", the tables give " + join(ap[i].ids) + " of types " + join(ap[i].types));
            }
        }
    }
}

// Arrow type name (as pyarrow prints it) of a DuckDB type text; empty when there is no
// one-to-one name, in which case types are not compared.
std::string arrow_name(std::string duck) {
    if (duck.size() > 2 && duck.compare(duck.size() - 2, 2, "[]") == 0) {
        const std::string element = arrow_name(duck.substr(0, duck.size() - 2));
        return element.empty() ? "" : "list<item: " + element + ">";
    }
    static const std::vector<std::pair<std::string, std::string>> names = {
        {"VARCHAR", "string"},
        {"BLOB", "binary"},
        {"BIGINT", "int64"},
        {"INTEGER", "int32"},
        {"SMALLINT", "int16"},
        {"TINYINT", "int8"},
        {"UBIGINT", "uint64"},
        {"UINTEGER", "uint32"},
        {"USMALLINT", "uint16"},
        {"UTINYINT", "uint8"},
        {"DOUBLE", "double"},
        {"FLOAT", "float"},
        {"BOOLEAN", "bool"},
        {"TIMESTAMP", "timestamp[us]"},
        {"TIMESTAMP_MS", "timestamp[ms]"},
        {"TIMESTAMP_S", "timestamp[s]"},
        {"TIMESTAMP_NS", "timestamp[ns]"},
        {"DATE", "date32[day]"}};
    for (const auto& [d, a] : names)
        if (d == duck) return a;
    return "";
}

// Arrow spells some types two ways; both mean the same column.
std::string normalized_arrow(std::string s) {
    auto replace_all = [&](const std::string& from, const std::string& to) {
        for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size()))
            s.replace(p, from.size(), to);
    };
    replace_all("large_string", "string");
    replace_all("large_binary", "binary");
    replace_all("large_list<", "list<");
    replace_all("utf8", "string");
    replace_all("halffloat", "float16");
    // Parquet has no fixed-size list: a fixed_size_list<item: T>[N] column is stored as a list
    // (pyarrow and DuckDB alike), so the file's list<item: T> is what such a field looks like.
    replace_all("fixed_size_list<", "list<");
    for (size_t p = s.find(">["); p != std::string::npos; p = s.find(">[", p + 1)) {
        size_t end = p + 2;
        while (end < s.size() && s[end] >= '0' && s[end] <= '9') ++end;
        if (end > p + 2 && end < s.size() && s[end] == ']') s.erase(p + 1, end + 1 - (p + 1));
    }
    return s;
}

void compare_fields(TableChecks& t, const std::vector<LevelFields>& fields) {
    const std::string where = "COLLECTION.json taco:field_schema";
    if (fields.empty()) {
        t.sink.warning("collection.field-schema", where,
                       "COLLECTION.json has no taco:field_schema describing the level columns",
                       "field_schema");
        return;
    }
    std::vector<bool> described(t.levels.size(), false);
    for (const LevelFields& lf : fields) {
        // "level" + digits; any other key, or digits beyond any integer, names no level.
        const std::optional<uint64_t> level =
            lf.level.rfind("level", 0) == 0 ? parse_decimal(std::string_view(lf.level).substr(5))
                                            : std::nullopt;
        if (!level || *level >= t.levels.size()) {
            t.sink.error("collection.field-schema", where + " " + lf.level,
                         "describes a level the dataset does not have", "field_schema");
            continue;
        }
        described[*level] = true;
        const LevelRows& L = t.levels[*level];
        if (L.columns.empty()) continue;
        // The reference computes field_schema before ZIP offsets exist, so they are never listed.
        auto listed_in_table = [](const std::string& name) {
            return name != "internal:offset" && name != "internal:size" &&
                   name != "internal:gdal_vsi";
        };
        std::vector<std::string> table_names, schema_names;
        for (const auto& [name, type] : L.columns)
            if (listed_in_table(name)) table_names.push_back(name);
        for (const auto& f : lf.fields)
            if (listed_in_table(f.name)) schema_names.push_back(f.name);
        for (const auto& f : lf.fields) {
            if (!listed_in_table(f.name)) continue;
            const std::string* type = column_type_of(L.columns, f.name);
            if (!type) {
                t.sink.error("collection.field-schema", where + " " + lf.level,
                             "lists column '" + f.name + "', which " + L.name + " does not have",
                             "field_schema");
                continue;
            }
            const std::string expected = arrow_name(*type);
            if (!expected.empty() && normalized_arrow(f.type) != expected) {
                t.sink.warning("collection.field-schema", where + " " + lf.level,
                               "column '" + f.name + "' is listed as " + f.type + ", but " +
                                   L.name + " stores " + expected,
                               "field_schema");
            }
        }
        for (const auto& name : table_names) {
            if (std::find(schema_names.begin(), schema_names.end(), name) == schema_names.end()) {
                t.sink.error("collection.field-schema", where + " " + lf.level,
                             "does not list column '" + name + "' of " + L.name, "field_schema");
            }
        }
        if (std::is_permutation(table_names.begin(), table_names.end(), schema_names.begin(),
                                schema_names.end()) &&
            table_names != schema_names) {
            t.sink.warning("collection.field-schema", where + " " + lf.level,
                           "lists the columns of " + L.name + " in a different order",
                           "field_schema");
        }
    }
    for (size_t d = 0; d < t.levels.size(); ++d) {
        if (!described[d]) {
            t.sink.warning(
                "collection.field-schema", where,
                "has no entry \"level" + std::to_string(d) + "\" for " + t.levels[d].name,
                "field_schema");
        }
    }
}

}  // namespace

const std::string* column_type_of(const ParquetColumns& cols, std::string_view name) {
    for (const auto& [n, t] : cols)
        if (n == name) return &t;
    return nullptr;
}

void check_collection_schemas(TableChecks& t, const CollectionDocument& collection) {
    if (loaded(t, 0)) {
        bool all_loaded = true;
        for (size_t d = 0; d < t.levels.size(); ++d) all_loaded = all_loaded && loaded(t, d);
        if (all_loaded) {
            if (auto actual = expected_pit(t)) compare_pit(t, collection.pit, *actual);
        }
    }
    compare_fields(t, collection.fields);
}

}  // namespace taco::format
