// TACO DataType -> DuckDB logical type.
#include "metadata/duckdb_types.hpp"

#include <vector>

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
        case TypeId::Date:
            return duckdb_create_logical_type(DUCKDB_TYPE_DATE);
        case TypeId::TimestampTz:
            return duckdb_create_logical_type(DUCKDB_TYPE_TIMESTAMP_TZ);
        case TypeId::Decimal:
            return duckdb_create_decimal_type(static_cast<uint8_t>(t.size()),
                                              static_cast<uint8_t>(t.scale()));
        case TypeId::FixedList: {
            duckdb_logical_type child = make_logical_type(t.element());
            duckdb_logical_type array = duckdb_create_array_type(child, t.size());
            duckdb_destroy_logical_type(&child);
            return array;
        }
        case TypeId::Map: {
            duckdb_logical_type key = make_logical_type(t.field_type(0));
            duckdb_logical_type value = make_logical_type(t.field_type(1));
            duckdb_logical_type map = duckdb_create_map_type(key, value);
            duckdb_destroy_logical_type(&key);
            duckdb_destroy_logical_type(&value);
            return map;
        }
        case TypeId::Struct: {
            const size_t n = t.field_count();
            std::vector<duckdb_logical_type> members(n);
            std::vector<const char*> names(n);
            for (size_t i = 0; i < n; ++i) {
                members[i] = make_logical_type(t.field_type(i));
                names[i] = t.field_name(i).c_str();
            }
            duckdb_logical_type st = duckdb_create_struct_type(members.data(), names.data(), n);
            for (auto& m : members) duckdb_destroy_logical_type(&m);
            return st;
        }
        case TypeId::Null:
        case TypeId::String:
            break;
    }
    return duckdb_create_logical_type(DUCKDB_TYPE_VARCHAR);
}

}  // namespace taco::metadata
