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

/// `text` with the descriptor paths the level tables (and copies of `__meta__`) are read through
/// replaced by what the user knows them as: `<dataset>:<table>` for a ZIP's level table,
/// "<metadata table in memory>" otherwise. Whether anything was replaced goes to `replaced`.
std::string name_internal_paths(const DatasetContext& ctx, std::string text, bool* replaced);

}  // namespace taco::query
