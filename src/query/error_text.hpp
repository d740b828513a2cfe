// DuckDB's error messages made fit for users (hardening item 7): they name the dataset's files,
// never the `/proc/self/fd/N` a ZIP's level table is read through nor the `WITH data AS ...`
// rewrite of the user's query, and long values in them are shortened.
#pragma once

#include <string>

#include "query/dataset_context.hpp"

namespace taco::query {

struct DuckErrorText {
    std::string text;
    /// The failure was reading one of the dataset's level tables: the data is damaged, not the
    /// query wrong.
    bool damaged = false;
};

DuckErrorText user_facing_duckdb_error(const DatasetContext& ctx, const std::string& message);

}  // namespace taco::query
