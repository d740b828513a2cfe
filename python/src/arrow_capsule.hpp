// A ResultTable handed to Python through the Arrow PyCapsule protocol (pyarrow, polars, pandas
// take it without a copy per row). Defined in bind_reader.cpp.
#pragma once

#include <memory>

#include "metadata/duckdb_session.hpp"
#include "metadata/result_table.hpp"
#include "py_common.hpp"

namespace taco::py {

/// A capsule named "arrow_array_stream" over `table`'s rows, converted with `db`'s Arrow
/// settings (read at once: `db` need not outlive the capsule); the stream is released if the
/// consumer never takes it.
nb::object arrow_stream_capsule(std::shared_ptr<const metadata::ResultTable> table,
                                metadata::DuckSession& db);

}  // namespace taco::py
