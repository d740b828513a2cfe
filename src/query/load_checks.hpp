// Consistency checks `load` makes between COLLECTION.json and the level tables before a dataset
// is handed out (hardening item 6): a header or document that points at the wrong table must be
// refused, not loaded with the wrong rows.
#pragma once

#include <string>

#include "format/dataset_open.hpp"
#include "format/parquet_footer.hpp"
#include "metadata/duckdb_session.hpp"

namespace taco::query {

/// FormatError unless taco:pit_schema's root.n equals the rows of level 0 (`level0` is what
/// read_parquet reads), padding included, as writers count them.
/// `footer`: level 0's footer, read while DuckDB started (stage_levels); its row count answers
/// without a statement. Null: counted by DuckDB.
void check_root_count(const format::OpenedDataset& src, metadata::DuckSession& db,
                      const std::string& level0, const format::ParquetFooter* footer = nullptr);

/// FormatError when taco:pit_schema describes deeper levels than the dataset has tables for
/// (a METADATA/levelK.parquet missing, or a header without its slot): their samples would be
/// silently absent from every read, convert and export.
void check_level_count(const format::OpenedDataset& src);

/// FormatError when level `level` (>= 1) has `rows` rows but taco:pit_schema gives it another
/// number: the sum of the n of its patterns, as every writer counts them (tacotoolbox 0.26 and
/// tacocore alike, at every depth). A TACO_HEADER whose slots are out of order would otherwise
/// load level 2's rows as level 1. Not for collection indexes: the legacy __TACOCAT__ counts
/// each pattern as the whole level.
void check_level_rows(const format::OpenedDataset& src, size_t level, uint64_t rows);

/// FormatError naming the level-0 table and the first row whose `id` is NULL. Every reader view
/// hides rows by their id (`__TACOPAD__*` is padding), and a NULL id would be hidden with them:
/// a real sample silently gone. Writers never produce one (ids are validated), so such a table
/// was written by hand or damaged; `taco validate` reports each row (finding row.id).
/// A `footer` whose statistics count no NULL id answers without a statement.
void check_level0_ids(const format::OpenedDataset& src, metadata::DuckSession& db,
                      const std::string& level0, const format::ParquetFooter* footer = nullptr);

}  // namespace taco::query
