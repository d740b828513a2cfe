// The columns of the Parquet files a writer produces: consolidated level tables and per-folder
// `__meta__` tables (FORMAT.md §4.2, §4.4). Cells borrow from the LevelTables.
#pragma once

#include <cstdint>
#include <vector>

#include "metadata/duckdb_session.hpp"
#include "metadata/level_tables.hpp"

namespace taco::metadata {

/// Byte placement of each row of one level inside a ZIP (FILE data, or the FOLDER's __meta__).
struct Placement {
    std::vector<int64_t> offset;
    std::vector<int64_t> size;
};

/// id, type, extension columns, internal:current_id, internal:parent_id, then (ZIP only)
/// internal:offset, internal:size, then (level >= 1) internal:relative_path.
std::vector<TableColumn> level_columns(const std::vector<LevelTable>& levels, size_t level,
                                       const Placement* zip_placement);

/// id, type, extension columns of the `count` rows of `level` starting at `begin` (one folder's
/// children), then (ZIP only) internal:offset, internal:size.
std::vector<TableColumn> meta_columns(const LevelTable& level, int64_t begin, size_t count,
                                      const Placement* zip_placement);

}  // namespace taco::metadata
