// `__meta__` tables against the consolidated levels: same children, same columns (PIT-2). Files
// are read in batches through one DuckDB query each, so a dataset with a hundred thousand
// folders costs a few hundred queries rather than a hundred thousand.
#include <algorithm>
#include <unordered_map>

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
};

bool is_internal(const std::string& name) {
    return name.rfind("internal:", 0) == 0;
}

// PIT-2: the children's columns must be the next level's columns with the same types (the
// internal columns differ by design and the order is not required).
void compare_columns(TableChecks& t, const MetaFile& m, const ParquetColumns& meta,
                     const LevelRows& next) {
    for (const auto& [name, type] : meta) {
        if (is_internal(name)) continue;
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
        if (is_internal(name) || column_type_of(meta, name)) continue;
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
                                            bool offsets) {
    const std::string extra =
        offsets ? ", CAST(\"internal:offset\" AS BIGINT), CAST(\"internal:size\" AS BIGINT)" : "";
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
    }
    return out;
}

void compare_children(TableChecks& t, const MetaFile& m, const std::vector<MetaRow>& rows,
                      const MetaChildCheck& child_check) {
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
    for (size_t b = 0; b < metas.size(); b += kBatch) {
        const size_t e = std::min(metas.size(), b + kBatch);
        std::vector<std::string> files;
        for (size_t i = b; i < e; ++i) files.push_back(metas[i].parquet);
        const auto schemas = parquet_columns(t.db, files);

        std::vector<size_t> usable;  // indices into metas
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
            if (ok) usable.push_back(i);
        }
        if (usable.empty()) continue;

        std::vector<std::string> usable_files;
        for (size_t i : usable) usable_files.push_back(metas[i].parquet);
        std::vector<std::vector<MetaRow>> rows;
        try {
            rows = read_rows(t, usable_files, zip);
        } catch (const QueryError&) {
            // A damaged file fails the batch; read them one by one to name it.
            rows.assign(usable.size(), {});
            for (size_t k = 0; k < usable.size(); ++k) {
                try {
                    rows[k] = read_rows(t, {usable_files[k]}, zip)[0];
                } catch (const QueryError& err) {
                    t.sink.error("meta.unreadable", metas[usable[k]].name,
                                 std::string("cannot read the rows: ") + err.what(), "meta");
                    usable[k] = SIZE_MAX;
                }
            }
        }
        for (size_t k = 0; k < usable.size(); ++k) {
            if (usable[k] != SIZE_MAX) compare_children(t, metas[usable[k]], rows[k], child_check);
        }
    }
}

}  // namespace taco::format
