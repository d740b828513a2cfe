#include "metadata/query_rows.hpp"

#include <duckdb.h>

#include "taco/errors.hpp"

namespace taco::metadata {
namespace {

DataType to_data_type(duckdb_logical_type t, const std::string& column) {
    switch (duckdb_get_type_id(t)) {
        case DUCKDB_TYPE_BOOLEAN: return DataType::boolean();
        case DUCKDB_TYPE_INTEGER: return DataType::int32();
        case DUCKDB_TYPE_BIGINT: return DataType::int64();
        case DUCKDB_TYPE_FLOAT: return DataType::float32();
        case DUCKDB_TYPE_DOUBLE: return DataType::float64();
        case DUCKDB_TYPE_VARCHAR: return DataType::string();
        case DUCKDB_TYPE_BLOB: return DataType::binary();
        case DUCKDB_TYPE_TIMESTAMP: return DataType::timestamp();
        case DUCKDB_TYPE_SQLNULL: return DataType::null();
        case DUCKDB_TYPE_LIST: {
            duckdb_logical_type child = duckdb_list_type_child_type(t);
            DataType elem = to_data_type(child, column);
            duckdb_destroy_logical_type(&child);
            return DataType::list(elem);
        }
        default: {
            char* name = duckdb_logical_type_get_alias(t);
            std::string n = name ? name : std::to_string(static_cast<int>(duckdb_get_type_id(t)));
            duckdb_free(name);
            throw SchemaError("column '" + column + "' has a DuckDB type (" + n +
                              ") with no TACO equivalent; cast it to a number, text, timestamp or list");
        }
    }
}

Value read_cell(duckdb_vector vec, idx_t row, const DataType& type) {
    uint64_t* validity = duckdb_vector_get_validity(vec);
    if (validity && !duckdb_validity_row_is_valid(validity, row)) return Value::null(type);
    void* data = duckdb_vector_get_data(vec);
    switch (type.id()) {
        case TypeId::Bool: return Value(static_cast<bool*>(data)[row]);
        case TypeId::Int32: return Value::int32(static_cast<int32_t*>(data)[row]);
        case TypeId::Int64: return Value(static_cast<long long>(static_cast<int64_t*>(data)[row]));
        case TypeId::Timestamp: return Value::timestamp(static_cast<int64_t*>(data)[row]);
        case TypeId::Float32: return Value(static_cast<float*>(data)[row]);
        case TypeId::Float64: return Value(static_cast<double*>(data)[row]);
        case TypeId::String:
        case TypeId::Binary: {
            duckdb_string_t* s = static_cast<duckdb_string_t*>(data) + row;
            std::string text(duckdb_string_t_data(s), duckdb_string_t_length(*s));
            return type.id() == TypeId::String ? Value(std::move(text)) : Value::binary(std::move(text));
        }
        case TypeId::List: {
            auto entry = static_cast<duckdb_list_entry*>(data)[row];
            duckdb_vector child = duckdb_list_vector_get_child(vec);
            Value::List items;
            items.reserve(entry.length);
            for (uint64_t i = 0; i < entry.length; ++i) items.push_back(read_cell(child, entry.offset + i, type.element()));
            return Value::list(type.element(), std::move(items));
        }
        case TypeId::Null: break;
    }
    return Value::null(type);
}

}  // namespace

Rows query_rows(DuckSession& db, const std::string& sql) {
    auto con = static_cast<duckdb_connection>(db.raw_connection());
    duckdb_result result;
    if (duckdb_query(con, sql.c_str(), &result) != DuckDBSuccess) {
        std::string msg = duckdb_result_error(&result);
        duckdb_destroy_result(&result);
        throw QueryError(msg);
    }
    Rows out;
    try {
        idx_t ncol = duckdb_column_count(&result);
        for (idx_t c = 0; c < ncol; ++c) {
            duckdb_logical_type lt = duckdb_column_logical_type(&result, c);
            std::string name = duckdb_column_name(&result, c);
            try {
                out.columns.push_back({name, to_data_type(lt, name)});
            } catch (...) {
                duckdb_destroy_logical_type(&lt);
                throw;
            }
            duckdb_destroy_logical_type(&lt);
        }
        while (true) {
            duckdb_data_chunk chunk = duckdb_fetch_chunk(result);
            if (!chunk) break;
            idx_t n = duckdb_data_chunk_get_size(chunk);
            size_t base = out.rows.size();
            out.rows.resize(base + n);
            for (idx_t c = 0; c < ncol; ++c) {
                duckdb_vector vec = duckdb_data_chunk_get_vector(chunk, c);
                for (idx_t r = 0; r < n; ++r) out.rows[base + r].push_back(read_cell(vec, r, out.columns[c].type));
            }
            duckdb_destroy_data_chunk(&chunk);
        }
    } catch (...) {
        duckdb_destroy_result(&result);
        throw;
    }
    duckdb_destroy_result(&result);
    return out;
}

std::string normalized_select(DuckSession& db, const std::string& relation_sql) {
    Rows described = query_rows(db, "SELECT column_name, column_type FROM (DESCRIBE " + relation_sql + ")");
    std::string select;
    for (const auto& row : described.rows) {
        const std::string& name = row[0].as_string();
        const std::string& type = row[1].as_string();
        std::string expr = quote_identifier(name);
        auto starts = [&](const char* p) { return type.rfind(p, 0) == 0; };
        if (type == "TINYINT" || type == "SMALLINT" || type == "UTINYINT" || type == "USMALLINT") {
            expr = "CAST(" + expr + " AS INTEGER)";
        } else if (type == "UINTEGER" || type == "UBIGINT" || type == "HUGEINT") {
            expr = "CAST(" + expr + " AS BIGINT)";
        } else if (starts("DECIMAL")) {
            expr = "CAST(" + expr + " AS DOUBLE)";
        } else if (type == "DATE" || starts("TIMESTAMP_") || type == "TIMESTAMP WITH TIME ZONE") {
            expr = "CAST(" + expr + " AS TIMESTAMP)";
        } else if (type == "UUID" || starts("ENUM") || starts("TIME") ) {
            if (!starts("TIMESTAMP")) expr = "CAST(" + expr + " AS VARCHAR)";
        }
        select += (select.empty() ? "" : ", ") + expr + " AS " + quote_identifier(name);
    }
    return "SELECT " + select + " FROM (" + relation_sql + ")";
}

}  // namespace taco::metadata
