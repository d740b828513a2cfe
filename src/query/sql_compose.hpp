// Binding the table name `data` in a user's query to the current view, without rewriting text:
// the view becomes a common table expression named `data`, which shadows the catalog's `data`
// for every spelling (FROM data, JOIN data, sub-queries, CTEs) and leaves identifiers such as
// `data_x` and string literals alone (REFERENCE-API §A8, §A20.1).
#pragma once

#include <string>

namespace taco::query {

/// Returns a single SELECT-like statement equivalent to `query` run with `data` = `view_sql`:
///  - `SELECT ...`, `FROM ...`, `VALUES ...`, `(...)`   -> WITH data AS (view) query
///  - `WITH [RECURSIVE] a AS (...) ...`                 -> WITH [RECURSIVE] data AS (view), a AS
///  ...
///  - `DESCRIBE ...`, `SUMMARIZE ...`, `SHOW ...`        -> WITH data AS (view) SELECT * FROM
///  (query)
///  - `EXPLAIN [ANALYZE] [(options)] statement`         -> EXPLAIN [ANALYZE] [(options)]
///    <statement bound as above>; such a result is a plan, not a view: it cannot be chained
/// When the query's own WITH list already defines `data`, that definition wins and the query is
/// returned unchanged. Trailing semicolons are dropped; QueryError for an empty query or several
/// statements. The result is itself valid as `view_sql` for the next call (chaining).
/// `extra_ctes` (name AS (...), ...) are defined right after `data` and may use it.
std::string bind_data_view(const std::string& view_sql, const std::string& query,
                           const std::string& extra_ctes = "");

/// Whether `sql` is an EXPLAIN statement (its result is a query plan, not a view to chain on).
bool is_explain(const std::string& sql);

/// Whether `query` names one of the flat views `l0`, `l1`, ... (as a word or quoted identifier).
bool names_flat_view(const std::string& query);

}  // namespace taco::query
