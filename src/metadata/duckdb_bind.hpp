// Preparing a statement and reading what it returns (names, TACO types, the casts a type needs),
// shared by the ways results are fetched. Includes duckdb.h: only for src/metadata/*.cpp.
#pragma once

#include <duckdb.h>

#include <string>
#include <vector>

#include "taco/value.hpp"

namespace taco::metadata {

/// The TACO type a DuckDB type is fetched as; `cast` is set when DuckDB must convert the column
/// first (the converted type's SQL name is then DataType::sql_name()).
DataType fetched_type(duckdb_logical_type t, bool top_level, bool& cast);

/// A prepared statement, destroyed with its scope.
struct Prepared {
    duckdb_prepared_statement stmt = nullptr;
    Prepared() = default;
    Prepared(const Prepared&) = delete;
    Prepared& operator=(const Prepared&) = delete;
    ~Prepared() { duckdb_destroy_prepare(&stmt); }
};

/// Prepares `sql`; QueryError with DuckDB's message when it does not parse or bind.
void prepare(duckdb_connection con, const std::string& sql, Prepared& out);

/// Runs a prepared statement whose result is not read (a COPY); QueryError with DuckDB's
/// message when it fails.
void run_prepared(duckdb_prepared_statement stmt);

/// Registers a table function under `name` in the database's catalog of `con` (one name per
/// connection when several serve their own rows), its callbacks receiving `extra_info`, which
/// must outlive every call. QueryError when DuckDB refuses it.
void register_table_function(duckdb_connection con, const std::string& name, void* extra_info,
                             duckdb_table_function_bind_t bind, duckdb_table_function_init_t init,
                             duckdb_table_function_t function);

/// One column a prepared statement returns.
struct BoundColumn {
    std::string name;
    DataType type;
    bool cast = false;  // DuckDB's type has no TACO equivalent: fetched through a CAST to `type`
};

std::vector<BoundColumn> bound_columns(duckdb_prepared_statement stmt);

}  // namespace taco::metadata
