// TACO DataType -> DuckDB logical type.
#include "metadata/duckdb_types.hpp"

namespace taco::metadata {

duckdb_logical_type make_logical_type(const DataType& t) {
    switch (t.id()) {
        case TypeId::Bool:
            return duckdb_create_logical_type(DUCKDB_TYPE_BOOLEAN);
        case TypeId::Int32:
            return duckdb_create_logical_type(DUCKDB_TYPE_INTEGER);
        case TypeId::Int64:
            return duckdb_create_logical_type(DUCKDB_TYPE_BIGINT);
        case TypeId::Float32:
            return duckdb_create_logical_type(DUCKDB_TYPE_FLOAT);
        case TypeId::Float64:
            return duckdb_create_logical_type(DUCKDB_TYPE_DOUBLE);
        case TypeId::Binary:
            return duckdb_create_logical_type(DUCKDB_TYPE_BLOB);
        case TypeId::Timestamp:
            return duckdb_create_logical_type(DUCKDB_TYPE_TIMESTAMP);
        case TypeId::List: {
            duckdb_logical_type child = make_logical_type(t.element());
            duckdb_logical_type list = duckdb_create_list_type(child);
            duckdb_destroy_logical_type(&child);
            return list;
        }
        case TypeId::Null:
        case TypeId::String:
            break;
    }
    return duckdb_create_logical_type(DUCKDB_TYPE_VARCHAR);
}

}  // namespace taco::metadata
