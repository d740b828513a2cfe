#include "metadata/scalar_udf.hpp"

#include <duckdb.h>

#include <cstring>
#include <exception>
#include <memory>

#include "taco/errors.hpp"

namespace taco::metadata {
namespace {

struct UdfState {
    BoolUdf fn;
    size_t arity = 0;
};

duckdb_type duck_type(UdfType t) {
    switch (t) {
        case UdfType::Blob:
            return DUCKDB_TYPE_BLOB;
        case UdfType::Varchar:
            return DUCKDB_TYPE_VARCHAR;
        case UdfType::Double:
            return DUCKDB_TYPE_DOUBLE;
        case UdfType::BigInt:
            return DUCKDB_TYPE_BIGINT;
    }
    return DUCKDB_TYPE_INVALID;
}

void call_udf(duckdb_function_info info, duckdb_data_chunk input, duckdb_vector output) {
    auto* state = static_cast<UdfState*>(duckdb_scalar_function_get_extra_info(info));
    const size_t rows = duckdb_data_chunk_get_size(input);
    // The C API hands flat vectors to scalar functions (constants are flattened first).
    std::vector<UdfArgs::Column> columns;
    columns.reserve(state->arity);
    for (size_t a = 0; a < state->arity; ++a) {
        duckdb_vector v = duckdb_data_chunk_get_vector(input, a);
        columns.push_back({duckdb_vector_get_data(v), duckdb_vector_get_validity(v)});
    }
    thread_local std::vector<uint8_t> result;
    result.assign(rows, 2);
    try {
        state->fn(UdfArgs(rows, std::move(columns)), result);
    } catch (const std::exception& e) {
        duckdb_scalar_function_set_error(info, e.what());
        return;
    }
    auto* out = static_cast<bool*>(duckdb_vector_get_data(output));
    duckdb_vector_ensure_validity_writable(output);
    uint64_t* validity = duckdb_vector_get_validity(output);
    for (size_t r = 0; r < rows; ++r) {
        if (result[r] == 2) {
            duckdb_validity_set_row_invalid(validity, r);
            out[r] = false;
        } else {
            out[r] = result[r] == 1;
        }
    }
}

// Copies the argument's values and validity to the result: the function's only job is to be a
// function, whose result DuckDB knows no statistics of.
void pass_through(duckdb_function_info info, duckdb_data_chunk input, duckdb_vector output) {
    const size_t rows = duckdb_data_chunk_get_size(input);
    const size_t width = *static_cast<const size_t*>(duckdb_scalar_function_get_extra_info(info));
    duckdb_vector in = duckdb_data_chunk_get_vector(input, 0);
    std::memcpy(duckdb_vector_get_data(output), duckdb_vector_get_data(in), rows * width);
    if (const uint64_t* valid = duckdb_vector_get_validity(in)) {
        duckdb_vector_ensure_validity_writable(output);
        std::memcpy(duckdb_vector_get_validity(output), valid, (rows + 63) / 64 * sizeof(uint64_t));
    }
}

void register_pass_through(duckdb_connection con, const char* name, duckdb_type type,
                           const size_t* width) {
    duckdb_scalar_function f = duckdb_create_scalar_function();
    duckdb_scalar_function_set_name(f, name);
    duckdb_logical_type t = duckdb_create_logical_type(type);
    duckdb_scalar_function_add_parameter(f, t);
    duckdb_scalar_function_set_return_type(f, t);
    duckdb_destroy_logical_type(&t);
    // NULL in, NULL out (the validity copy); not volatile, so filters still go into the scan.
    duckdb_scalar_function_set_special_handling(f);
    duckdb_scalar_function_set_extra_info(f, const_cast<size_t*>(width), nullptr);
    duckdb_scalar_function_set_function(f, pass_through);
    const duckdb_state st = duckdb_register_scalar_function(con, f);
    duckdb_destroy_scalar_function(&f);
    if (st != DuckDBSuccess)
        throw QueryError(std::string("cannot register the SQL function ") + name);
}

void lookup(duckdb_function_info info, duckdb_data_chunk input, duckdb_vector output) {
    const auto& values =
        *static_cast<const std::vector<int64_t>*>(duckdb_scalar_function_get_extra_info(info));
    const size_t rows = duckdb_data_chunk_get_size(input);
    duckdb_vector in = duckdb_data_chunk_get_vector(input, 0);
    const auto* row = static_cast<const int64_t*>(duckdb_vector_get_data(in));
    uint64_t* valid = duckdb_vector_get_validity(in);  // read only
    auto* out = static_cast<int64_t*>(duckdb_vector_get_data(output));
    duckdb_vector_ensure_validity_writable(output);
    uint64_t* out_valid = duckdb_vector_get_validity(output);
    for (size_t r = 0; r < rows; ++r) {
        const bool present = (!valid || duckdb_validity_row_is_valid(valid, r)) && row[r] >= 0 &&
                             static_cast<uint64_t>(row[r]) < values.size();
        out[r] = present ? values[static_cast<size_t>(row[r])] : 0;
        if (!present) duckdb_validity_set_row_invalid(out_valid, r);
    }
}

}  // namespace

void register_int64_lookup(DuckSession& db, const std::string& name,
                           std::shared_ptr<const std::vector<int64_t>> values) {
    std::shared_ptr<void>& slot = db.module_state("udf:" + name);
    if (slot) return;
    duckdb_scalar_function f = duckdb_create_scalar_function();
    duckdb_scalar_function_set_name(f, name.c_str());
    duckdb_logical_type bigint = duckdb_create_logical_type(DUCKDB_TYPE_BIGINT);
    duckdb_scalar_function_add_parameter(f, bigint);
    duckdb_scalar_function_set_return_type(f, bigint);
    duckdb_destroy_logical_type(&bigint);
    duckdb_scalar_function_set_special_handling(f);  // NULL rows reach lookup(): NULL out
    duckdb_scalar_function_set_extra_info(f, const_cast<std::vector<int64_t>*>(values.get()),
                                          nullptr);
    duckdb_scalar_function_set_function(f, lookup);
    const duckdb_state st =
        duckdb_register_scalar_function(static_cast<duckdb_connection>(db.raw_connection()), f);
    duckdb_destroy_scalar_function(&f);
    if (st != DuckDBSuccess) throw QueryError("cannot register the SQL function " + name);
    slot = std::const_pointer_cast<std::vector<int64_t>>(values);  // kept while the session lives
}

void register_float_passthrough(DuckSession& db) {
    std::shared_ptr<void>& slot = db.module_state("udf:float-passthrough");
    if (slot) return;
    static const size_t kFloatWidth = sizeof(float), kDoubleWidth = sizeof(double);
    auto con = static_cast<duckdb_connection>(db.raw_connection());
    register_pass_through(con, kFloatPassthrough, DUCKDB_TYPE_FLOAT, &kFloatWidth);
    register_pass_through(con, kDoublePassthrough, DUCKDB_TYPE_DOUBLE, &kDoubleWidth);
    slot = std::make_shared<int>(0);
}

// Runs for every string argument of every row, so it reads the C API's documented layout instead
// of calling into libduckdb: a duckdb_string_t holds up to 12 bytes inline and points at longer
// strings.
std::string_view UdfArgs::get_string(size_t a, size_t r) const {
    const auto& s = static_cast<const duckdb_string_t*>(columns_[a].data)[r];
    const uint32_t length = s.value.inlined.length;
    return length <= 12 ? std::string_view(s.value.inlined.inlined, length)
                        : std::string_view(s.value.pointer.ptr, length);
}

void register_bool_function(DuckSession& db, const std::string& name,
                            const std::vector<UdfType>& params, BoolUdf fn) {
    std::shared_ptr<void>& slot = db.module_state("udf:" + name);
    if (slot) return;
    auto state = std::make_shared<UdfState>();
    state->fn = std::move(fn);
    state->arity = params.size();
    duckdb_scalar_function f = duckdb_create_scalar_function();
    duckdb_scalar_function_set_name(f, name.c_str());
    for (UdfType p : params) {
        duckdb_logical_type t = duckdb_create_logical_type(duck_type(p));
        duckdb_scalar_function_add_parameter(f, t);
        duckdb_destroy_logical_type(&t);
    }
    duckdb_logical_type boolean = duckdb_create_logical_type(DUCKDB_TYPE_BOOLEAN);
    duckdb_scalar_function_set_return_type(f, boolean);
    duckdb_destroy_logical_type(&boolean);
    // NULLs reach fn, which decides. Not volatile: a filter on it must be pushed below the
    // level views' computed columns (a million gdal_vsi strings otherwise). DuckDB may then
    // also probe it with NULLs standing for a column (a predicate on one column goes into the
    // scan), so functions answer NULL, not an error, for such a row.
    duckdb_scalar_function_set_special_handling(f);
    duckdb_scalar_function_set_extra_info(f, state.get(), nullptr);
    duckdb_scalar_function_set_function(f, call_udf);
    const duckdb_state st =
        duckdb_register_scalar_function(static_cast<duckdb_connection>(db.raw_connection()), f);
    duckdb_destroy_scalar_function(&f);
    if (st != DuckDBSuccess) throw QueryError("cannot register the SQL function " + name);
    slot = state;
}

}  // namespace taco::metadata
