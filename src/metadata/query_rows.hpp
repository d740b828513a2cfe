// Reading query results back as typed Values (for user metadata tables, `taco sql`, tests).
// Column types are normalised to the TACO value types first (see normalized_select).
#pragma once

#include <string>
#include <vector>

#include "metadata/duckdb_session.hpp"

namespace taco::metadata {

struct Rows {
    std::vector<ColumnType> columns;
    std::vector<std::vector<Value>> rows;  // row-major
};

/// Runs `sql` and converts every cell. Supported result types: BOOLEAN, INTEGER, BIGINT, FLOAT,
/// DOUBLE, VARCHAR, BLOB, TIMESTAMP and LISTs of them; anything else is a SchemaError naming the
/// column (use normalized_select first to cast the common others).
Rows query_rows(DuckSession& db, const std::string& sql);

/// Wraps `relation_sql` (e.g. "SELECT * FROM 'x.csv'") in a SELECT that casts DuckDB types with
/// no TACO equivalent: small and unsigned ints -> INTEGER/BIGINT, DECIMAL -> DOUBLE, DATE and
/// other timestamps -> TIMESTAMP (UTC), UUID/ENUM/TIME -> VARCHAR. Other types are kept (and
/// rejected by query_rows with the column name).
std::string normalized_select(DuckSession& db, const std::string& relation_sql);

}  // namespace taco::metadata
