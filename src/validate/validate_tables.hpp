// Container-independent validation of the metadata: level tables (columns, types, ids, parent
// links, relative paths), the `__meta__` tables, PIT-1/PIT-2, and COLLECTION.json's
// taco:pit_schema / taco:field_schema against the tables (spec §5.4-§5.5, FORMAT.md §4-§5).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "format/collection_schema.hpp"
#include "metadata/duckdb_session.hpp"
#include "metadata/result_table.hpp"
#include "validate/validate_report.hpp"

namespace taco::format {

/// Top-level columns of a Parquet file as (name, DuckDB type text), e.g. ("x", "FLOAT[][]").
using ParquetColumns = std::vector<std::pair<std::string, std::string>>;

/// The type of column `name` in `cols`, or nullptr.
const std::string* column_type_of(const ParquetColumns& cols, std::string_view name);

/// One consolidated level table, loaded for validation.
struct LevelRows {
    std::string name;     // "METADATA/level1.parquet"
    std::string parquet;  // what DuckDB reads: a file path or /proc/self/fd/N
    ParquetColumns columns;
    std::shared_ptr<const metadata::ResultTable> rows;
    // Columns of `rows` (absent or mistyped columns stay empty).
    std::optional<size_t> id, type, current_id, parent_id, offset, size, relative_path;
    // Derived by check_level_rows():
    std::vector<std::string> paths;     // sample path per row, "europe/item_0"
    std::vector<uint32_t> child_begin;  // CSR over the next level: children of row r are
    std::vector<uint32_t> children;     //   children[child_begin[r] .. child_begin[r + 1])

    size_t size_rows() const { return rows ? rows->rows() : 0; }
    std::string_view id_of(size_t r) const;
    std::string_view type_of(size_t r) const;
    bool is_folder(size_t r) const { return type_of(r) == "FOLDER"; }
    bool is_padding(size_t r) const;
    /// "METADATA/level1.parquet row 3 (europe/item_0)".
    std::string where(size_t r) const;
};

struct TableChecks {
    FindingSink& sink;
    metadata::DuckSession& db;
    ContainerFormat format;
    std::vector<LevelRows> levels;
};

/// Reads the schemas of several Parquet files in one query. Returns one entry per file, in order;
/// nullopt for a file DuckDB cannot read.
std::vector<std::optional<ParquetColumns>> parquet_columns(metadata::DuckSession& db,
                                                           const std::vector<std::string>& files);

/// Loads level `level.parquet` into `level` and checks its columns and their types. Returns false
/// (after reporting) when the table is unusable (unreadable, or no id/type column).
bool load_level(TableChecks& t, LevelRows& level, size_t index);

/// Row checks on every loaded level: types, ids, current_id, parent links, row order, relative
/// paths; fills paths and the child index.
void check_level_rows(TableChecks& t);

/// PIT-1 at every depth: samples at the same position below different roots have the same id,
/// type and child count (padding stands in for a FILE). Also: one type for all root samples.
void check_pit(TableChecks& t);

/// taco:pit_schema and taco:field_schema against the tables.
void check_collection_schemas(TableChecks& t, const CollectionDocument& collection);

/// One `__meta__` to compare with the consolidated tables.
struct MetaFile {
    size_t level;         // level of the FOLDER row
    size_t row;           // its row
    std::string name;     // "DATA/europe/__meta__", for locations
    std::string parquet;  // what DuckDB reads
};

/// Called per child row of a `__meta__` when the file carries offsets (ZIP): the meta file, the
/// matching child row in the next level (or nullopt), and the child's id, type, offset, size.
using MetaChildCheck = std::function<void(
    const MetaFile&, size_t meta_row, std::optional<size_t> child, std::string_view id,
    std::string_view type, std::optional<int64_t> offset, std::optional<int64_t> size)>;

/// Reads the `__meta__` files in batches and checks each against the next level: same children
/// (ids and types, in order, padding included), same extension columns and types (PIT-2).
void check_meta_files(TableChecks& t, const std::vector<MetaFile>& metas,
                      const MetaChildCheck& child_check);

}  // namespace taco::format
