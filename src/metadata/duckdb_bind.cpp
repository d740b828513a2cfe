#include "metadata/duckdb_bind.hpp"

#include "io/cancel.hpp"
#include "taco/errors.hpp"

namespace taco::metadata {

namespace {

std::string take_string(const char* s) {
    std::string out = s ? s : "";
    duckdb_free(const_cast<char*>(s));
    return out;
}

// Owns a logical type for the scope, so an exception (a type nested too deep) leaks nothing.
struct OwnedType {
    duckdb_logical_type t;
    explicit OwnedType(duckdb_logical_type type) : t(type) {}
    OwnedType(const OwnedType&) = delete;
    OwnedType& operator=(const OwnedType&) = delete;
    ~OwnedType() { duckdb_destroy_logical_type(&t); }
};

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
        // A uint64 column (pyarrow writes them; DuckDB's hash() returns one) holds values beyond
        // int64: cast to int64 they failed the whole query, so they are read as decimal(20, 0),
        // which holds every one of them exactly.
        case DUCKDB_TYPE_UBIGINT:
            cast = true;
            return DataType::decimal(20, 0);
        case DUCKDB_TYPE_UINTEGER:
        case DUCKDB_TYPE_HUGEINT:  // sum() of BIGINTs: int64 as long as the sum fits
        case DUCKDB_TYPE_UHUGEINT:
            cast = true;
            return DataType::int64();
        case DUCKDB_TYPE_DECIMAL:
            return DataType::decimal(duckdb_decimal_width(t), duckdb_decimal_scale(t));
        case DUCKDB_TYPE_DATE:
            return DataType::date();
        case DUCKDB_TYPE_TIMESTAMP_TZ:
            return DataType::timestamp_tz();
        case DUCKDB_TYPE_TIMESTAMP_S:
        case DUCKDB_TYPE_TIMESTAMP_MS:
        case DUCKDB_TYPE_TIMESTAMP_NS:
            cast = true;
            return DataType::timestamp();
        case DUCKDB_TYPE_LIST: {
            OwnedType child(duckdb_list_type_child_type(t));
            return DataType::list(fetched_type(child.t, false, cast));
        }
        case DUCKDB_TYPE_ARRAY: {
            OwnedType child(duckdb_array_type_child_type(t));
            DataType element = fetched_type(child.t, false, cast);
            return DataType::fixed_list(element, static_cast<int>(duckdb_array_type_array_size(t)));
        }
        case DUCKDB_TYPE_STRUCT: {
            std::vector<std::pair<std::string, DataType>> fields;
            const idx_t n = duckdb_struct_type_child_count(t);
            for (idx_t i = 0; i < n; ++i) {
                OwnedType child(duckdb_struct_type_child_type(t, i));
                DataType type = fetched_type(child.t, false, cast);
                fields.emplace_back(take_string(duckdb_struct_type_child_name(t, i)), type);
            }
            // DuckDB allows an empty struct and duplicate-free names; TACO needs a field at least.
            if (fields.empty()) {
                cast = true;
                return DataType::string();
            }
            return DataType::structure(fields);
        }
        case DUCKDB_TYPE_MAP: {
            OwnedType key(duckdb_map_type_key_type(t));
            OwnedType value(duckdb_map_type_value_type(t));
            DataType k = fetched_type(key.t, false, cast);
            return DataType::map(k, fetched_type(value.t, false, cast));
        }
        default:
            // TIME, INTERVAL, UUID, ENUM, BIT, UNION...: their text form.
            cast = true;
            return DataType::string();
    }
}

void prepare(duckdb_connection con, const std::string& sql, Prepared& out) {
    // A stop asked for before the statement starts: duckdb_interrupt() only reaches a running
    // one, so without this the query would run to its end (DuckSession::exec does the same).
    io::throw_if_cancelled("running a query");
    if (duckdb_prepare(con, sql.c_str(), &out.stmt) != DuckDBSuccess) {
        throw QueryError(duckdb_prepare_error(out.stmt));
    }
}

void run_prepared(duckdb_prepared_statement stmt) {
    duckdb_result result;
    if (duckdb_execute_prepared(stmt, &result) != DuckDBSuccess) {
        std::string msg = duckdb_result_error(&result);
        duckdb_destroy_result(&result);
        throw QueryError(msg);
    }
    duckdb_destroy_result(&result);
}

void register_table_function(duckdb_connection con, const std::string& name, void* extra_info,
                             duckdb_table_function_bind_t bind, duckdb_table_function_init_t init,
                             duckdb_table_function_t function) {
    duckdb_table_function f = duckdb_create_table_function();
    duckdb_table_function_set_name(f, name.c_str());
    duckdb_table_function_set_extra_info(f, extra_info, nullptr);
    duckdb_table_function_set_bind(f, bind);
    duckdb_table_function_set_init(f, init);
    duckdb_table_function_set_function(f, function);
    const duckdb_state st = duckdb_register_table_function(con, f);
    duckdb_destroy_table_function(&f);
    if (st != DuckDBSuccess) throw QueryError("cannot register the table function " + name);
}

std::vector<BoundColumn> bound_columns(duckdb_prepared_statement stmt) {
    std::vector<BoundColumn> out;
    const idx_t n = duckdb_prepared_statement_column_count(stmt);
    for (idx_t i = 0; i < n; ++i) {
        BoundColumn c;
        c.name = take_string(duckdb_prepared_statement_column_name(stmt, i));
        OwnedType lt(duckdb_prepared_statement_column_logical_type(stmt, i));
        try {
            c.type = fetched_type(lt.t, true, c.cast);
        } catch (const SchemaError& e) {
            throw SchemaError("column '" + c.name + "': " + e.what());
        }
        out.push_back(std::move(c));
    }
    return out;
}

}  // namespace taco::metadata
