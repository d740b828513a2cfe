// `__meta__` tables against the consolidated levels: same children, same columns (PIT-2). Files
// are read in batches through one DuckDB query each, so a dataset with a hundred thousand
// folders costs a few hundred queries rather than a hundred thousand.
#include <algorithm>
#include <map>
#include <unordered_map>

#include "model/column_names.hpp"
#include "model/join.hpp"
#include "taco/errors.hpp"
#include "validate/validate_tables.hpp"

namespace taco::format {
namespace {

using metadata::quote_literal;

constexpr size_t kBatch = 256;

struct MetaRow {
    std::string id;
    std::string type;
    std::optional<int64_t> offset, size;
    std::optional<uint64_t> values;  // hash of the extension columns (ValueHashes' columns)
};

// A __meta__ is "a complete metadata snapshot" of its children (spec §6.2): tacoreader navigates
// through it, SQL reads the level table, so their values must agree. Rows are compared by a hash
// of the extension columns (sorted by name; the internal ones differ by design), computed once
// per level in one scan and once per batch of __meta__ files.
struct ValueHashes {
    std::vector<std::string> columns;  // the level's extension columns, sorted
    std::vector<uint64_t> of_row;      // per level row, in file order
};

std::vector<std::string> extension_columns(const ParquetColumns& cols) {
    std::vector<std::string> out;
    for (const auto& [name, type] : cols)
        if (!is_internal_column(name) && name != "id" && name != "type") out.push_back(name);
    std::sort(out.begin(), out.end());
    return out;
}

std::string hash_sql(const std::vector<std::string>& columns) {
    std::string args;
    for (const std::string& c : columns)
        args += (args.empty() ? "" : ", ") + metadata::quote_identifier(c);
    // hash() is a UBIGINT; its upper 63 bits fit a BIGINT.
    return "CAST(hash(" + args + ") >> 1 AS BIGINT)";
}

std::optional<ValueHashes> level_hashes(TableChecks& t, const LevelRows& level) {
    ValueHashes out;
    out.columns = extension_columns(level.columns);
    if (out.columns.empty()) return std::nullopt;
    try {
        auto table = metadata::ResultTable::fetch(t.db, "SELECT " + hash_sql(out.columns) +
                                                            " FROM read_parquet(" +
                                                            quote_literal(level.parquet) + ")");
        if (table->rows() != level.size_rows()) return std::nullopt;
        out.of_row.resize(table->rows());
        for (size_t r = 0; r < table->rows(); ++r)
            out.of_row[r] = static_cast<uint64_t>(table->get_int(r, 0));
    } catch (const QueryError&) {
        return std::nullopt;  // the level's own checks report why it cannot be read
    }
    return out;
}

// PIT-2: the children's columns must be the next level's columns with the same types (the
// internal columns differ by design and the order is not required).
void compare_columns(TableChecks& t, const MetaFile& m, const ParquetColumns& meta,
                     const LevelRows& next) {
    for (const auto& [name, type] : meta) {
        if (is_internal_column(name)) continue;
        const std::string* expected = column_type_of(next.columns, name);
        if (!expected) {
            t.sink.error("pit.schema", m.name,
                         "PIT-2: column '" + name + "' is not a column of " + next.name,
                         "pit.schema");
        } else if (*expected != type) {
            t.sink.error("pit.schema", m.name,
                         "PIT-2: column '" + name + "' has type " + type + ", but " + next.name +
                             " stores it as " + *expected,
                         "pit.schema");
        }
    }
    for (const auto& [name, type] : next.columns) {
        if (is_internal_column(name) || column_type_of(meta, name)) continue;
        t.sink.error("pit.schema", m.name,
                     "PIT-2: column '" + name + "' of " + next.name + " is missing", "pit.schema");
    }
}

std::string file_list(const std::vector<std::string>& files) {
    std::string out = "[";
    for (size_t i = 0; i < files.size(); ++i) out += (i ? ", " : "") + quote_literal(files[i]);
    return out + "]";
}

// Rows of every file in `files` (all readable, all with id and type), grouped per file.
std::vector<std::vector<MetaRow>> read_rows(TableChecks& t, const std::vector<std::string>& files,
                                            bool offsets, const ValueHashes* hashes) {
    std::string extra =
        offsets ? ", CAST(\"internal:offset\" AS BIGINT), CAST(\"internal:size\" AS BIGINT)" : "";
    if (hashes) extra += ", " + hash_sql(hashes->columns);
    const size_t hash_col = offsets ? 6 : 4;
    auto table = metadata::ResultTable::fetch(
        t.db, "SELECT filename, file_row_number, \"id\", \"type\"" + extra + " FROM read_parquet(" +
                  file_list(files) +
                  ", filename = true, file_row_number = true, union_by_name = true)");
    std::unordered_map<std::string_view, size_t> index;
    for (size_t i = 0; i < files.size(); ++i) index.emplace(files[i], i);
    std::vector<std::vector<MetaRow>> out(files.size());
    for (size_t r = 0; r < table->rows(); ++r) {
        const auto it = index.find(table->get_string(r, 0));
        if (it == index.end()) continue;
        auto& rows = out[it->second];
        const size_t at = static_cast<size_t>(table->get_int(r, 1));
        if (rows.size() <= at) rows.resize(at + 1);
        MetaRow& row = rows[at];
        row.id = std::string(table->get_string(r, 2));
        row.type = std::string(table->get_string(r, 3));
        if (offsets) {
            if (!table->is_null(r, 4)) row.offset = table->get_int(r, 4);
            if (!table->is_null(r, 5)) row.size = table->get_int(r, 5);
        }
        if (hashes) row.values = static_cast<uint64_t>(table->get_int(r, hash_col));
    }
    return out;
}

void compare_children(TableChecks& t, const MetaFile& m, const std::vector<MetaRow>& rows,
                      const ValueHashes* hashes, const MetaChildCheck& child_check) {
    const LevelRows& parent = t.levels[m.level];
    const bool indexed = m.level + 1 < t.levels.size() && t.levels[m.level + 1].rows &&
                         parent.child_begin.size() == parent.size_rows() + 1;
    const LevelRows* next = indexed ? &t.levels[m.level + 1] : nullptr;
    const size_t expected = next ? parent.child_begin[m.row + 1] - parent.child_begin[m.row] : 0;
    if (next && rows.size() != expected) {
        t.sink.error("meta.children", m.name,
                     "lists " + std::to_string(rows.size()) + " children, but " + next->name +
                         " has " + std::to_string(expected) + " for " + parent.where(m.row),
                     "meta.children");
    }
    for (size_t j = 0; j < rows.size(); ++j) {
        std::optional<size_t> child;
        if (next && j < expected) {
            const size_t c = parent.children[parent.child_begin[m.row] + j];
            if (next->id_of(c) != rows[j].id || next->type_of(c) != rows[j].type) {
                t.sink.error("meta.children", m.name + " row " + std::to_string(j),
                             "child is " + rows[j].type + " '" + rows[j].id + "', but " +
                                 next->where(c) + " is " + std::string(next->type_of(c)) + " '" +
                                 std::string(next->id_of(c)) + "'",
                             "meta.children");
            } else {
                child = c;
                if (hashes && rows[j].values && c < hashes->of_row.size() &&
                    *rows[j].values != hashes->of_row[c]) {
                    t.sink.error("meta.values", m.name + " row " + std::to_string(j),
                                 "the metadata of '" + rows[j].id + "' differs from " +
                                     next->where(c) + " in at least one of its columns (" +
                                     join_text(hashes->columns) +
                                     "): navigation and SQL would read different values",
                                 "meta.values");
                }
            }
        }
        if (child_check)
            child_check(m, j, child, rows[j].id, rows[j].type, rows[j].offset, rows[j].size);
    }
}

}  // namespace

void check_meta_files(TableChecks& t, const std::vector<MetaFile>& metas,
                      const MetaChildCheck& child_check) {
    const bool zip = t.format == ContainerFormat::Zip;
    std::unordered_map<size_t, std::optional<ValueHashes>> hashes_of_level;  // the children's
    auto hashes_for = [&](size_t level) -> const ValueHashes* {
        if (level >= t.levels.size() || !t.levels[level].rows) return nullptr;
        auto it = hashes_of_level.find(level);
        if (it == hashes_of_level.end())
            it = hashes_of_level.emplace(level, level_hashes(t, t.levels[level])).first;
        return it->second ? &*it->second : nullptr;
    };
    for (size_t b = 0; b < metas.size(); b += kBatch) {
        const size_t e = std::min(metas.size(), b + kBatch);
        std::vector<std::string> files;
        for (size_t i = b; i < e; ++i) files.push_back(metas[i].parquet);
        const auto schemas = parquet_columns(t.db, files);

        std::vector<size_t> usable;    // indices into metas
        std::vector<bool> comparable;  // per usable: its extension columns are the level's
        for (size_t i = b; i < e; ++i) {
            const MetaFile& m = metas[i];
            const auto& cols = schemas[i - b];
            if (!cols) {
                t.sink.error("meta.unreadable", m.name, "not a readable Parquet file", "meta");
                continue;
            }
            bool ok = true;
            for (const char* name : {"id", "type"}) {
                const std::string* type = column_type_of(*cols, name);
                if (!type || *type != "VARCHAR") {
                    t.sink.error("meta.column", m.name,
                                 std::string("no string column '") + name + "'", "meta");
                    ok = false;
                }
            }
            if (zip) {
                for (const char* name : {"internal:offset", "internal:size"}) {
                    if (!column_type_of(*cols, name)) {
                        t.sink.error("meta.column", m.name,
                                     std::string("no column '") + name +
                                         "' (readers locate the children with it)",
                                     "meta");
                        ok = false;
                    }
                }
            }
            if (m.level + 1 < t.levels.size() && !t.levels[m.level + 1].columns.empty()) {
                compare_columns(t, m, *cols, t.levels[m.level + 1]);
            }
            if (ok) {
                usable.push_back(i);
                const ValueHashes* h = hashes_for(m.level + 1);
                comparable.push_back(h && extension_columns(*cols) == h->columns);
            }
        }
        if (usable.empty()) continue;

        // One read per group: the files whose values can be compared, per level of their
        // children (the hashes are that level's), then the rest (a PIT-2 difference, reported
        // above) without values.
        std::map<std::optional<size_t>, std::vector<size_t>> groups;  // nullopt: no values
        for (size_t k = 0; k < usable.size(); ++k) {
            const size_t i = usable[k];
            groups[comparable[k] ? std::optional<size_t>(metas[i].level + 1) : std::nullopt]
                .push_back(i);
        }
        for (auto& [children_level, group] : groups) {
            const ValueHashes* hashes = children_level ? hashes_for(*children_level) : nullptr;
            std::vector<std::string> files;
            for (size_t i : group) files.push_back(metas[i].parquet);
            std::vector<std::vector<MetaRow>> rows;
            try {
                rows = read_rows(t, files, zip, hashes);
            } catch (const QueryError&) {
                // A damaged file fails the batch; read them one by one to name it.
                rows.assign(group.size(), {});
                for (size_t k = 0; k < group.size(); ++k) {
                    try {
                        rows[k] = read_rows(t, {files[k]}, zip, hashes)[0];
                    } catch (const QueryError& err) {
                        t.sink.error("meta.unreadable", metas[group[k]].name,
                                     std::string("cannot read the rows: ") + err.what(), "meta");
                        group[k] = SIZE_MAX;
                    }
                }
            }
            for (size_t k = 0; k < group.size(); ++k) {
                if (group[k] != SIZE_MAX)
                    compare_children(t, metas[group[k]], rows[k], hashes, child_check);
            }
        }
    }
}

}  // namespace taco::format
