// TACO DataType -> DuckDB logical type. Includes duckdb.h: only for src/metadata/*.cpp.
#pragma once

#include <duckdb.h>

#include "taco/value.hpp"

namespace taco::metadata {

/// A new logical type (destroy with duckdb_destroy_logical_type). Unknown (null) types map to
/// VARCHAR, as the writers store all-null columns.
duckdb_logical_type make_logical_type(const DataType& type);

}  // namespace taco::metadata
