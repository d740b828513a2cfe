#include "metadata/duckdb_bind.hpp"

#include "taco/errors.hpp"

namespace taco::metadata {

namespace {

std::string take_string(const char* s) {
    std::string out = s ? s : "";
    duckdb_free(const_cast<char*>(s));
    return out;
}

}  // namespace

DataType fetched_type(duckdb_logical_type t, bool top_level, bool& cast) {
    switch (duckdb_get_type_id(t)) {
        case DUCKDB_TYPE_BOOLEAN:
            return DataType::boolean();
        case DUCKDB_TYPE_INTEGER:
            return DataType::int32();
        case DUCKDB_TYPE_BIGINT:
            return DataType::int64();
        case DUCKDB_TYPE_FLOAT:
            return DataType::float32();
        case DUCKDB_TYPE_DOUBLE:
            return DataType::float64();
        case DUCKDB_TYPE_VARCHAR:
            return DataType::string();
        case DUCKDB_TYPE_BLOB:
            return DataType::binary();
        case DUCKDB_TYPE_TIMESTAMP:
            return DataType::timestamp();
        case DUCKDB_TYPE_SQLNULL:
            // A bare NULL column stays untyped; inside a list it needs a real element type.
            if (top_level) return DataType::null();
            cast = true;
            return DataType::string();
        case DUCKDB_TYPE_TINYINT:
        case DUCKDB_TYPE_SMALLINT:
        case DUCKDB_TYPE_UTINYINT:
        case DUCKDB_TYPE_USMALLINT:
            cast = true;
            return DataType::int32();
        case DUCKDB_TYPE_UINTEGER:
        case DUCKDB_TYPE_UBIGINT:
        case DUCKDB_TYPE_HUGEINT:
        case DUCKDB_TYPE_UHUGEINT:
            cast = true;
            return DataType::int64();
        case DUCKDB_TYPE_DECIMAL:
            cast = true;
            return DataType::float64();
        case DUCKDB_TYPE_TIMESTAMP_S:
        case DUCKDB_TYPE_TIMESTAMP_MS:
        case DUCKDB_TYPE_TIMESTAMP_NS:
        case DUCKDB_TYPE_TIMESTAMP_TZ:
            cast = true;
            return DataType::timestamp();
        case DUCKDB_TYPE_LIST: {
            duckdb_logical_type child = duckdb_list_type_child_type(t);
            DataType element = fetched_type(child, false, cast);
            duckdb_destroy_logical_type(&child);
            return DataType::list(element);
        }
        case DUCKDB_TYPE_ARRAY: {
            duckdb_logical_type child = duckdb_array_type_child_type(t);
            DataType element = fetched_type(child, false, cast);
            duckdb_destroy_logical_type(&child);
            cast = true;
            return DataType::list(element);
        }
        default:
            // DATE, TIME, INTERVAL, UUID, ENUM, BIT, STRUCT, MAP, UNION...: their text form.
            cast = true;
            return DataType::string();
    }
}

void prepare(duckdb_connection con, const std::string& sql, Prepared& out) {
    if (duckdb_prepare(con, sql.c_str(), &out.stmt) != DuckDBSuccess) {
        throw QueryError(duckdb_prepare_error(out.stmt));
    }
}

std::vector<BoundColumn> bound_columns(duckdb_prepared_statement stmt) {
    std::vector<BoundColumn> out;
    const idx_t n = duckdb_prepared_statement_column_count(stmt);
    for (idx_t i = 0; i < n; ++i) {
        BoundColumn c;
        c.name = take_string(duckdb_prepared_statement_column_name(stmt, i));
        duckdb_logical_type lt = duckdb_prepared_statement_column_logical_type(stmt, i);
        c.type = fetched_type(lt, true, c.cast);
        duckdb_destroy_logical_type(&lt);
        out.push_back(std::move(c));
    }
    return out;
}

}  // namespace taco::metadata
