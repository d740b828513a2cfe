// Exports a ResultTable as an Arrow C stream: DuckDB converts each of its chunks to an Arrow
// record batch (columnar, no per-row work), so pyarrow/polars/pandas take the rows directly.
// Batches are converted ahead of the consumer on every core, and runs of small chunks (a
// selective filter's) share one batch (result_arrow.cpp).
#pragma once

#include <memory>

#include "metadata/arrow_c.hpp"
#include "metadata/duckdb_session.hpp"
#include "metadata/result_table.hpp"

namespace taco::metadata {

/// Fills `out` with a stream over `table`'s rows; the stream keeps `table` alive until released.
/// `db` supplies DuckDB's Arrow conversion settings (read once, here).
void export_arrow_stream(std::shared_ptr<const ResultTable> table, DuckSession& db,
                         ArrowArrayStream* out);

}  // namespace taco::metadata
