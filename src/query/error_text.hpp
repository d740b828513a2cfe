// DuckDB's error messages made fit for users (hardening item 7): they name the dataset's files,
// never the `/proc/self/fd/N` a ZIP's level table is read through nor the `WITH data AS ...`
// rewrite of the user's query, and long values in them are shortened.
#pragma once

#include <string>
#include <string_view>

#include "query/dataset_context.hpp"
#include "taco/errors.hpp"

namespace taco::query {

struct DuckErrorText {
    std::string text;
    /// The failure was reading one of the dataset's level tables: the data is damaged, not the
    /// query wrong.
    bool damaged = false;
};

/// `statement`: the SQL that failed, when the user wrote part of it. A descriptor path it spells
/// out (`read_parquet('/proc/self/fd/1')`) is the user's own file, not one of ours: kept as
/// written, and its failure is a query error rather than damaged metadata.
DuckErrorText user_facing_duckdb_error(const DatasetContext& ctx, const std::string& message,
                                       std::string_view statement = {});

/// `text` with the descriptor paths the level tables (and copies of `__meta__`) are read through
/// replaced by what the user knows them as: `<dataset>:<table>` for a ZIP's level table,
/// "<metadata table in memory>" otherwise; those `statement` spells out are left alone. Whether
/// anything was replaced goes to `replaced`.
std::string name_internal_paths(const DatasetContext& ctx, std::string text, bool* replaced,
                                std::string_view statement = {});

/// Rethrows a failed statement on the user's view as the user should see it: prefixed with the
/// dataset, never showing what the user did not write (user_facing_duckdb_error). A failure to
/// read a level table means the dataset is damaged: FormatError; a timeout says so; anything
/// else is a QueryError ("query failed").
[[noreturn]] void rethrow_query(const DatasetContext& ctx, const QueryError& e,
                                const std::string& statement);

}  // namespace taco::query
