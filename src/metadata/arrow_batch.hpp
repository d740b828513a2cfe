// One Arrow record batch from a run of a ResultTable's chunks: the piece of the Arrow export
// (result_arrow.cpp) that runs on several threads at once. Internal to metadata/.
#pragma once

#include <duckdb.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

#include "metadata/arrow_c.hpp"
#include "metadata/result_table.hpp"

namespace taco::metadata {

/// How each column of a table becomes Arrow, decided once per stream from the schema DuckDB
/// gives it (arrow_columns()).
struct ArrowColumns {
    enum class Kind {
        /// DuckDB's conversion (booleans, decimals, nested types, ...).
        ByDuckDB,
        /// The table's computed column (derive_lazy), built as utf8 straight from its source
        /// rows: no DuckDB strings made and then copied.
        Computed,
        /// Fixed-width (integers, floats, dates, timestamps) with DuckDB's layout being Arrow's:
        /// the batch points at DuckDB's values and validity instead of copying them.
        Shared,
        /// VARCHAR / BLOB as utf8 / binary: the bytes copied once into a buffer sized first
        /// (DuckDB's conversion grows its buffers row by row), the validity shared.
        Text,
    };
    std::vector<Kind> kind;  // per column

    std::optional<size_t> computed() const;  // the column of Kind::Computed, if any
};

/// DuckDB's error as a std::runtime_error (nothing when `err` holds none); destroys `err`.
void throw_if_arrow_error(duckdb_error_data err);

/// The columns of `table` that can be made here, given `schema`, DuckDB's Arrow schema of it.
ArrowColumns arrow_columns(const ResultTable& table, const ArrowSchema& schema);

/// The chunks a stream converts: with a computed column made here, the chunks without it filled.
const std::vector<void*>& export_chunks(const ResultTable& table, const ArrowColumns& how);

/// Fills `out` with the rows of chunks [first, last) of `table` (together at most one vector,
/// 2,048 rows) as one record batch, which keeps `table` alive while it points into it. Reads the
/// table only, so batches can be made on several threads at once. Throws std::runtime_error with
/// DuckDB's message, or what the computed column's function threw.
void make_arrow_batch(const std::shared_ptr<const ResultTable>& table, duckdb_arrow_options options,
                      const ArrowColumns& how, size_t first, size_t last, ArrowArray* out);

}  // namespace taco::metadata
