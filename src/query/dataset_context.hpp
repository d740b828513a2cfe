// What every Dataset and DataFrame of one `load` share: the opened container, one DuckDB
// connection holding the level views, and the in-memory copies of the level Parquet bytes.
#pragma once

#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "format/dataset_open.hpp"
#include "io/memfd.hpp"
#include "metadata/duckdb_session.hpp"
#include "metadata/result_table.hpp"

namespace taco::query {

/// The children tables of recently read FOLDERs, by the FOLDER's gdal_vsi. Tables are immutable
/// and shared, so a hit costs nothing; walking back and forth through a tree reads each
/// `__meta__` once (tacoreader reads it on every `read`).
class ChildrenCache {
  public:
    static constexpr size_t kCapacity = 1024;
    std::shared_ptr<const metadata::ResultTable> find(const std::string& key);
    void put(const std::string& key, std::shared_ptr<const metadata::ResultTable> table);

  private:
    using Entry = std::pair<std::string, std::shared_ptr<const metadata::ResultTable>>;
    std::mutex mutex_;
    std::list<Entry> order_;  // most recent first
    std::unordered_map<std::string, std::list<Entry>::iterator> index_;
};

struct DatasetContext {
    format::OpenedDataset source;
    metadata::DuckSession db;
    /// DuckDB connections run one statement at a time; every use of `db` holds this lock.
    std::mutex db_mutex;
    /// ZIP: the level Parquet bytes, copied out of the archive (DuckDB reads /proc/self/fd/N).
    std::vector<std::unique_ptr<io::MemFd>> level_bytes;
    /// Columns of each raw level table (before the views add internal:gdal_vsi).
    std::vector<std::vector<ColumnType>> level_columns;
    ChildrenCache children;

    const std::string& name() const { return source.vsi_root; }
};

/// Settings every reader connection uses (also the validator's).
void configure_reader_session(metadata::DuckSession& db);

/// Registers the level tables of `opened` in a new DuckDB connection and creates the views
/// `level{i}_table` (raw), `level{i}` (padding hidden, + internal:gdal_vsi) and `data`
/// (= level0). FormatError when a level is not readable Parquet or lacks a required column.
std::shared_ptr<DatasetContext> make_context(format::OpenedDataset opened);

/// The SQL expression of `internal:gdal_vsi` for one level (REFERENCE-API §A10).
std::string gdal_vsi_expression(const format::OpenedDataset& source, size_t level);

/// Ids of padding samples start with this (`__TACOPAD__N`, FORMAT.md §4.5); readers hide them.
inline constexpr std::string_view kPaddingPrefix = "__TACOPAD__";

}  // namespace taco::query
