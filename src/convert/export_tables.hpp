// The metadata of an export, written by DuckDB from the source's own level tables: every column
// keeps its type and values, only the internal columns are recomputed from the tree (new ids,
// parent ids, offsets and sizes in the output, relative paths). Nothing goes through C++ values,
// so any column type the source has survives.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "convert/export_tree.hpp"
#include "metadata/duckdb_session.hpp"
#include "query/dataset_context.hpp"

namespace taco::convert {

class ExportTables {
  public:
    /// `zip`: the output is a ZIP (tables carry internal:offset/size). Call with ctx.db_mutex
    /// held for the whole life of the object (it owns temporary tables of ctx.db).
    ExportTables(query::DatasetContext& ctx, const ExportTree& tree, bool zip,
                 metadata::ParquetOptions level_options);
    ~ExportTables();  // drops the temporary tables
    ExportTables(const ExportTables&) = delete;
    ExportTables& operator=(const ExportTables&) = delete;

    /// Materializes level `d` of the output (every offset of that level must be final).
    void stage(size_t d);
    /// Encodes the `__meta__` of FOLDER rows `folders` of level `d` (level d+1 staged) and hands
    /// each to take(k, bytes) for folders[k], in that order.
    void write_metas(size_t d, const std::vector<size_t>& folders,
                     const std::function<void(size_t, std::string&)>& take);
    /// Writes METADATA/level{d}.parquet (level d staged) to `path`.
    void write_level(size_t d, const std::string& path);

    /// The staged table of level `d` (for the extent) and its columns.
    const std::string& staged_table(size_t d) const { return staged_.at(d); }
    const std::vector<ColumnType>& source_columns(size_t d) const { return columns_.at(d); }

  private:
    query::DatasetContext& ctx_;
    const ExportTree& tree_;
    bool zip_;
    metadata::ParquetOptions level_options_;
    std::string prefix_;
    std::vector<std::vector<ColumnType>> columns_;  // each source level table's columns
    std::vector<std::string> staged_;               // temp table per level ("" = not staged)
    std::vector<std::string> user_select_;          // quoted non-internal columns, in order
    std::vector<bool> v2_;
};

}  // namespace taco::convert
