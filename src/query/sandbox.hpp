// `load(..., {.sandbox = true})` / `taco sql --sandbox`: the reader session of a dataset limited
// to the dataset's own files, with settings locked and memory and time capped, for services that
// run SQL they did not write (hardening item 8). Also the per-query time limit of any load.
#pragma once

#include "io/deadline.hpp"
#include "query/dataset_context.hpp"
#include "taco/dataset.hpp"

namespace taco::query {

/// QueryError naming `path` for options no dataset could be loaded with (a negative or NaN
/// timeout), before anything is opened.
void check_load_options(const LoadOptions& options, const std::string& path);

/// Applies `options` to a freshly made context: memory limit, time limit, and with `sandbox`
/// DuckDB's external access limited to the dataset's files, then the configuration locked.
void apply_load_options(DatasetContext& ctx, const LoadOptions& options);

/// The time limit of one query on `ctx` (none when its timeout is 0): interrupts the query and
/// marks the context so that the error says why.
io::Deadline query_deadline(DatasetContext& ctx);

}  // namespace taco::query
