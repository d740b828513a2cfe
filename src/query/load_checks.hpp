// Consistency checks `load` makes between COLLECTION.json and the level tables before a dataset
// is handed out (hardening item 6): a header or document that points at the wrong table must be
// refused, not loaded with the wrong rows.
#pragma once

#include <string>

#include "format/dataset_open.hpp"
#include "metadata/duckdb_session.hpp"

namespace taco::query {

/// FormatError unless taco:pit_schema's root.n equals the rows of level 0 (`level0` is what
/// read_parquet reads), padding included, as writers count them.
void check_root_count(const format::OpenedDataset& src, metadata::DuckSession& db,
                      const std::string& level0);

}  // namespace taco::query
