// The level views of a collection (`.tacocat/`, `__TACOCAT__`): rows name their part in
// `internal:source_file`, their `internal:gdal_vsi` points into that part, and the ids of every
// part are shifted so they stay unique across parts (cascade joins and navigation never cross
// parts; the reference leaves them colliding, FORMAT.md §6.1).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "format/dataset_open.hpp"
#include "metadata/duckdb_session.hpp"

namespace taco::query {

/// The parts of a loaded collection, in order of first appearance in its level tables.
struct CollectionParts {
    std::string root;                ///< directory of the parts, ending in '/' (parts_root)
    std::string query;               ///< a remote index URL's query string (parts_query)
    std::vector<std::string> files;  ///< bare file names, as internal:source_file gives them
    /// [level][part]: what that part's internal:current_id values are shifted by (the rows of
    /// the parts before it at that level); internal:parent_id follows the level above.
    std::vector<std::vector<int64_t>> id_base;
    /// One byte source per part (nullptr for a remote root: opened when read; nullptr for a
    /// missing local part), in `files` order.
    std::vector<std::shared_ptr<io::ByteSource>> sources;
    /// The local parts not found at load (bare names, index order): the index is queried without
    /// them, as tacoreader does, and reading one of their samples names the part.
    std::vector<std::string> missing;
};

/// Reads which parts each level table names (one grouped scan of `internal:source_file` per
/// level), opens every part and checks that each range `[offset, offset + size)` of a level
/// lies inside its part. FormatError when a row has no part, a part name is not a bare file
/// name, or a range points past the end of its part. A missing local part is listed in
/// `missing` (its ranges are checked when it is read).
std::shared_ptr<const CollectionParts> index_collection(
    metadata::DuckSession& db, const format::OpenedDataset& opened,
    const std::vector<std::string>& level_files,
    const std::vector<std::vector<ColumnType>>& level_columns);

/// The raw table of level `level` (`relation`: read_parquet of its file, or a relation over
/// it) with ids shifted per part.
std::string collection_table_sql(const CollectionParts& parts, size_t level,
                                 const std::string& relation,
                                 const std::vector<ColumnType>& columns);

/// The SQL expression of a row's VSI root: its part's path.
std::string collection_root_sql(const CollectionParts& parts);

/// The path of the part named `file`: root, the name (percent-encoded over http), the query.
std::string part_path(const CollectionParts& parts, std::string_view file);

/// A collection's `internal:source_path` in a concatenation: the directory of its parts without
/// the final '/' (tacoreader's `vsi_base_path.rstrip("/")`, so `source_path + "/" +
/// source_file` names the part), then an index URL's query string.
std::string collection_source_path(const CollectionParts& parts);

/// The SQL expression of a part's path from the SQL of a collection_source_path and of a bare
/// part name: what collection_root_sql gives for that row.
std::string part_path_sql(const std::string& source_path_sql, const std::string& file_sql);

}  // namespace taco::query
