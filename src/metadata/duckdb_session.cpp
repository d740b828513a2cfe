// DuckSession: connection lifetime, plain statements, and bulk table creation via data chunks.
#include "metadata/duckdb_session.hpp"

#include <duckdb.h>

#include "metadata/duckdb_bind.hpp"
#include "metadata/duckdb_types.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>
#include <unordered_map>

#include "io/cancel.hpp"
#include "io/trace.hpp"
#include "paths/path_anchor.hpp"
#include "process/fork_generation.hpp"
#include "taco/errors.hpp"

namespace taco::metadata {

std::string quote_identifier(std::string_view name) {
    std::string out = "\"";
    for (char c : name) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

std::string quote_literal(std::string_view text) {
    std::string out = "'";
    for (char c : text) {
        if (c == '\'') out += '\'';
        out += c;
    }
    return out + "'";
}

TableColumn TableColumn::of_values(std::string name, DataType type,
                                   std::vector<const Value*> cells) {
    TableColumn c;
    c.name = std::move(name);
    c.type = std::move(type);
    c.kind = Kind::Values;
    c.values = std::move(cells);
    return c;
}

TableColumn TableColumn::of_int64(std::string name, std::vector<int64_t> cells) {
    TableColumn c;
    c.name = std::move(name);
    c.type = DataType::int64();
    c.kind = Kind::Int64;
    c.ints = std::move(cells);
    return c;
}

TableColumn TableColumn::of_strings(std::string name, std::vector<std::string_view> cells) {
    TableColumn c;
    c.name = std::move(name);
    c.type = DataType::string();
    c.kind = Kind::Strings;
    c.strings = std::move(cells);
    return c;
}

size_t TableColumn::rows() const {
    switch (kind) {
        case Kind::Values:
            return values.size();
        case Kind::Int64:
            return ints.size();
        case Kind::Strings:
            return strings.size();
    }
    return 0;
}

// One DuckDB database, closed when the last session connected to it goes.
struct SharedDatabase {
    duckdb_database db = nullptr;
    ~SharedDatabase() {
        if (db) duckdb_close(&db);
    }
};

struct DuckSession::Impl {
    // The process whose DuckDB threads serve this session: in a forked child they do not exist.
    process::ForkOwner owner;
    std::shared_ptr<SharedDatabase> database;
    duckdb_connection con = nullptr;
    // taco_stream() is registered in the database's catalog: one name per connection, so
    // sessions sharing a database each serve their own columns.
    std::string stream_function_name;
    // The table function `taco_stream()` serves these columns to the COPY that is running.
    bool stream_registered = false;
    const std::vector<TableColumn>* stream_columns = nullptr;
    size_t stream_position = 0;
    std::unordered_map<std::string, std::shared_ptr<void>> modules;
    size_t cancel_hook = 0;  // Ctrl-C / SIGTERM / a timeout interrupt the running query
};

DuckSession::DuckSession(int threads) : impl_(std::make_unique<Impl>()) {
    duckdb_config config = nullptr;
    duckdb_create_config(&config);
    // No extension may be fetched at run time: the machines here are offline (DESIGN.md §2).
    duckdb_set_config(config, "autoinstall_known_extensions", "false");
    duckdb_set_config(config, "autoload_known_extensions", "false");
    if (threads > 0) duckdb_set_config(config, "threads", std::to_string(threads).c_str());
    char* error = nullptr;
    impl_->database = std::make_shared<SharedDatabase>();
    if (duckdb_open_ext(nullptr, &impl_->database->db, config, &error) != DuckDBSuccess) {
        std::string msg = error ? error : "unknown error";
        duckdb_free(error);
        duckdb_destroy_config(&config);
        throw QueryError("cannot open DuckDB: " + msg);
    }
    duckdb_destroy_config(&config);
    connect();
}

DuckSession::DuckSession(const DuckSession& database_of, SameDatabase)
    : impl_(std::make_unique<Impl>()) {
    database_of.check_not_inherited();
    impl_->database = database_of.impl_->database;
    connect();
}

void DuckSession::connect() {
    if (duckdb_connect(impl_->database->db, &impl_->con) != DuckDBSuccess) {
        throw QueryError("cannot connect to DuckDB");
    }
    static std::atomic<uint64_t> sessions{0};
    impl_->stream_function_name = "taco_stream_" + std::to_string(sessions++);
    impl_->cancel_hook = io::add_cancel_hook([impl = impl_.get()] { duckdb_interrupt(impl->con); });
}

std::unique_ptr<DuckSession> DuckSession::another_connection() const {
    check_not_inherited();
    return std::make_unique<DuckSession>(*this, SameDatabase{});
}

DuckSession::DuckSession(DuckSession&& other) noexcept = default;

DuckSession::~DuckSession() {
    if (!impl_) return;  // moved from
    if (impl_->owner.inherited()) {
        // Inherited through fork(): closing the database would join DuckDB's worker threads,
        // which do not exist here (std::terminate, or a hang on a lock a parent thread held at
        // the fork). The memory is the parent's copy-on-write pages: leaving it costs nothing
        // new. The cancel hook stays too (its lock may be one of those held), pointing at a
        // connection that stays allocated, so running it remains harmless.
        static_cast<void>(impl_.release());
        return;
    }
    io::remove_cancel_hook(impl_->cancel_hook);
    if (impl_->con) duckdb_disconnect(&impl_->con);
    impl_->database.reset();  // the last session of a database closes it
}

void DuckSession::interrupt() {
    duckdb_interrupt(impl_->con);
}

void DuckSession::check_not_inherited() const {
    if (!impl_->owner.inherited()) return;
    throw QueryError("this dataset was opened in process " +
                     std::to_string(impl_->owner.owner_pid()) +
                     " and this process is a fork() of it: its DuckDB database cannot run here "
                     "(its worker threads stayed in the parent). Call load() again in this "
                     "process, e.g. in a DataLoader's worker_init_fn, or start workers with "
                     "the 'spawn' or 'forkserver' method (a TacoDataset pickles by reopening)");
}

void* DuckSession::raw_connection() const {
    check_not_inherited();
    return impl_->con;
}

std::shared_ptr<void>& DuckSession::module_state(const std::string& key) {
    return impl_->modules[key];
}

void DuckSession::exec(const std::string& sql) {
    check_not_inherited();
    // An interrupt reaches only the statement running at that moment (duckdb_interrupt): one
    // asked for between statements would be lost, and the next one run to its end.
    io::throw_if_cancelled("running a query");
    duckdb_result result;
    if (duckdb_query(impl_->con, sql.c_str(), &result) != DuckDBSuccess) {
        std::string msg = duckdb_result_error(&result);
        duckdb_destroy_result(&result);
        throw QueryError(msg);
    }
    duckdb_destroy_result(&result);
}

std::string DuckSession::query_scalar(const std::string& sql) {
    check_not_inherited();
    io::throw_if_cancelled("running a query");  // as in exec()
    duckdb_result result;
    if (duckdb_query(impl_->con, sql.c_str(), &result) != DuckDBSuccess) {
        std::string msg = duckdb_result_error(&result);
        duckdb_destroy_result(&result);
        throw QueryError(msg);
    }
    std::string out;
    if (duckdb_row_count(&result) > 0 && duckdb_column_count(&result) > 0) {
        char* v = duckdb_value_varchar(&result, 0, 0);
        if (v) out = v;
        duckdb_free(v);
    }
    duckdb_destroy_result(&result);
    return out;
}

namespace {

void set_null(duckdb_vector vec, idx_t row) {
    duckdb_vector_ensure_validity_writable(vec);
    duckdb_validity_set_row_invalid(duckdb_vector_get_validity(vec), row);
}

// A NULL cell, with the children DuckDB keeps in place for it (struct fields, fixed-size list
// items) made NULL too: they are read as they are, never skipped.
void set_null_deep(duckdb_vector vec, idx_t row, const DataType& type) {
    set_null(vec, row);
    if (type.id() == TypeId::List || type.id() == TypeId::Map) {
        auto* entries = static_cast<duckdb_list_entry*>(duckdb_vector_get_data(vec));
        entries[row] = {duckdb_list_vector_get_size(vec), 0};
    } else if (type.id() == TypeId::Struct) {
        for (size_t i = 0; i < type.field_count(); ++i)
            set_null_deep(duckdb_struct_vector_get_child(vec, i), row, type.field_type(i));
    } else if (type.id() == TypeId::FixedList) {
        duckdb_vector child = duckdb_array_vector_get_child(vec);
        const idx_t n = static_cast<idx_t>(type.size());
        for (idx_t i = 0; i < n; ++i) set_null_deep(child, row * n + i, type.element());
    }
}

// Parses a canonical decimal text (Value::decimal) into its unscaled integer at `scale` (a
// column's scale is at least its values', DataType::unify).
__int128 unscaled_decimal(const std::string& text, int scale) {
    __int128 out = 0;
    bool negative = false;
    int fraction = -1;  // digits seen after the point
    for (char c : text) {
        if (c == '-') negative = true;
        if (c == '.') fraction = 0;
        if (c >= '0' && c <= '9') {
            out = out * 10 + (c - '0');
            if (fraction >= 0) ++fraction;
        }
    }
    for (int i = std::max(fraction, 0); i < scale; ++i) out *= 10;
    return negative ? -out : out;
}

void write_value(duckdb_vector vec, idx_t row, const DataType& type, const Value* v);

// Appends `items` to the child of a LIST (or MAP) vector and points cell `row` at them.
void write_list(duckdb_vector vec, idx_t row, const DataType& element, const Value::List& items) {
    idx_t offset = duckdb_list_vector_get_size(vec);
    duckdb_list_vector_reserve(vec, offset + items.size());
    duckdb_list_vector_set_size(vec, offset + items.size());
    auto* entries = static_cast<duckdb_list_entry*>(duckdb_vector_get_data(vec));
    entries[row].offset = offset;
    entries[row].length = items.size();
    duckdb_vector child = duckdb_list_vector_get_child(vec);
    for (size_t i = 0; i < items.size(); ++i) write_value(child, offset + i, element, &items[i]);
}

// Writes one value into `vec` at `row`; `type` is the column's declared type. Lists append their
// elements to the child vector (whose current size is tracked by DuckDB).
void write_value(duckdb_vector vec, idx_t row, const DataType& type, const Value* v) {
    if (!v || v->is_null()) {
        set_null_deep(vec, row, type);
        return;
    }
    void* data = duckdb_vector_get_data(vec);
    switch (type.id()) {
        case TypeId::Bool:
            static_cast<bool*>(data)[row] = v->as_bool();
            break;
        case TypeId::Int32:
            static_cast<int32_t*>(data)[row] = static_cast<int32_t>(v->as_int());
            break;
        case TypeId::Date:
            static_cast<int32_t*>(data)[row] = static_cast<int32_t>(v->as_int());
            break;
        case TypeId::Int64:
        case TypeId::Timestamp:
        case TypeId::TimestampTz:
            static_cast<int64_t*>(data)[row] = v->as_int();
            break;
        case TypeId::Float32:
            static_cast<float*>(data)[row] = static_cast<float>(v->as_double());
            break;
        case TypeId::Float64:
            static_cast<double*>(data)[row] = v->as_double();
            break;
        case TypeId::Null:
        case TypeId::String:
        case TypeId::Binary: {
            const std::string& s = v->as_string();
            duckdb_vector_assign_string_element_len(vec, row, s.data(), s.size());
            break;
        }
        case TypeId::Decimal: {
            // DuckDB stores a decimal as the smallest integer that holds its precision.
            const __int128 x = unscaled_decimal(v->as_string(), type.scale());
            if (type.size() <= 4) {
                static_cast<int16_t*>(data)[row] = static_cast<int16_t>(x);
            } else if (type.size() <= 9) {
                static_cast<int32_t*>(data)[row] = static_cast<int32_t>(x);
            } else if (type.size() <= 18) {
                static_cast<int64_t*>(data)[row] = static_cast<int64_t>(x);
            } else {
                auto& h = static_cast<duckdb_hugeint*>(data)[row];
                h.lower = static_cast<uint64_t>(x);
                h.upper = static_cast<int64_t>(x >> 64);
            }
            break;
        }
        case TypeId::List:
            write_list(vec, row, type.element(), v->as_list());
            break;
        case TypeId::Map:
            write_list(vec, row, type.map_entry(), v->as_list());
            break;
        case TypeId::Struct: {
            const auto& fields = v->as_list();
            for (size_t i = 0; i < type.field_count(); ++i) {
                write_value(duckdb_struct_vector_get_child(vec, i), row, type.field_type(i),
                            i < fields.size() ? &fields[i] : nullptr);
            }
            break;
        }
        case TypeId::FixedList: {
            const auto& items = v->as_list();
            duckdb_vector child = duckdb_array_vector_get_child(vec);
            const idx_t n = static_cast<idx_t>(type.size());
            for (idx_t i = 0; i < n; ++i)
                write_value(child, row * n + i, type.element(),
                            i < items.size() ? &items[i] : nullptr);
            break;
        }
    }
}

// The type a column is stored as in Parquet. Parquet has no fixed-size list, and DuckDB 1.4
// writes a NULL fixed-size ARRAY with level data pyarrow cannot read (duckdb#24731): fixed-size
// lists are stored as lists, which every reader takes (docs/FORMAT-DECISIONS.md).
DataType parquet_storage_type(const DataType& type) {
    switch (type.id()) {
        case TypeId::FixedList:
        case TypeId::List:
            return DataType::list(parquet_storage_type(type.element()));
        case TypeId::Struct: {
            std::vector<std::pair<std::string, DataType>> fields;
            for (size_t i = 0; i < type.field_count(); ++i)
                fields.emplace_back(type.field_name(i), parquet_storage_type(type.field_type(i)));
            return DataType::structure(fields);
        }
        case TypeId::Map:
            return DataType::map(parquet_storage_type(type.field_type(0)),
                                 parquet_storage_type(type.field_type(1)));
        default:
            return type;
    }
}

void check_value_type(const TableColumn& col, size_t row, const Value* v) {
    if (!v || v->is_null()) return;
    DataType merged;
    if (!DataType::unify(col.type, v->type(), merged) || merged != col.type) {
        throw SchemaError("column '" + col.name + "' row " + std::to_string(row) +
                          ": value of type " + v->type().arrow_name() +
                          " does not fit the column type " + col.type.arrow_name());
    }
}

// Fills rows [start, start + n) of `columns` into `chunk` (n <= the vector size).
void fill_chunk(duckdb_data_chunk chunk, const std::vector<TableColumn>& columns, size_t start,
                idx_t n) {
    for (size_t c = 0; c < columns.size(); ++c) {
        const TableColumn& col = columns[c];
        duckdb_vector vec = duckdb_data_chunk_get_vector(chunk, c);
        switch (col.kind) {
            case TableColumn::Kind::Int64:
                std::memcpy(duckdb_vector_get_data(vec), col.ints.data() + start,
                            n * sizeof(int64_t));
                break;
            case TableColumn::Kind::Strings:
                for (idx_t r = 0; r < n; ++r) {
                    auto s = col.strings[start + r];
                    duckdb_vector_assign_string_element_len(vec, r, s.data(), s.size());
                }
                break;
            case TableColumn::Kind::Values: {
                const DataType stored = parquet_storage_type(col.type);
                for (idx_t r = 0; r < n; ++r) {
                    const Value* v = col.values[start + r];
                    check_value_type(col, start + r, v);
                    write_value(vec, r, stored, v);
                }
                break;
            }
        }
    }
    duckdb_data_chunk_set_size(chunk, n);
}

// taco_stream(): a table function that hands the session's current columns to DuckDB chunk by
// chunk, so COPY ... TO parquet reads them without a materialized temporary table.
void stream_bind(duckdb_bind_info info) {
    auto* impl = static_cast<DuckSession::Impl*>(duckdb_bind_get_extra_info(info));
    if (!impl->stream_columns) {
        duckdb_bind_set_error(info, "taco_stream() called with no columns to serve");
        return;
    }
    for (const auto& c : *impl->stream_columns) {
        duckdb_logical_type t = make_logical_type(parquet_storage_type(c.type));
        duckdb_bind_add_result_column(info, c.name.c_str(), t);
        duckdb_destroy_logical_type(&t);
    }
}

void stream_init(duckdb_init_info info) {
    auto* impl = static_cast<DuckSession::Impl*>(duckdb_init_get_extra_info(info));
    impl->stream_position = 0;
    duckdb_init_set_max_threads(info, 1);
}

void stream_function(duckdb_function_info info, duckdb_data_chunk output) {
    auto* impl = static_cast<DuckSession::Impl*>(duckdb_function_get_extra_info(info));
    const auto& columns = *impl->stream_columns;
    size_t rows = columns.empty() ? 0 : columns[0].rows();
    size_t start = impl->stream_position;
    idx_t n = std::min<size_t>(duckdb_vector_size(), rows - start);
    try {
        fill_chunk(output, columns, start, n);
    } catch (const std::exception& e) {
        duckdb_function_set_error(info, e.what());
        return;
    }
    impl->stream_position += n;
}

// Parquet V2 value encodings (DELTA_BINARY_PACKED integers, BYTE_STREAM_SPLIT floats,
// DELTA_LENGTH_BYTE_ARRAY strings) make a level table ~14x smaller and ~20% faster to decode
// (docs/FORMAT-DECISIONS.md). DuckDB 1.4 computes the deltas of int32 columns in 64 bits, and
// pyarrow (so tacoreader) rejects such pages when neighbouring values differ by more than 2^31-1:
// a table with an int32 column, at any depth, keeps the V1 encodings.
bool has_int32(const DataType& type) {
    switch (type.id()) {
        case TypeId::Int32:
        case TypeId::Date:     // 32-bit too
        case TypeId::Decimal:  // stored as int32 up to precision 9
            return true;
        case TypeId::List:
        case TypeId::FixedList:
            return has_int32(type.element());
        case TypeId::Struct:
        case TypeId::Map:
            for (size_t i = 0; i < type.field_count(); ++i)
                if (has_int32(type.field_type(i))) return true;
            return false;
        default:
            return false;
    }
}

}  // namespace

std::string parquet_codec_clause(const ParquetOptions& options) {
    if (options.codec == ParquetCodec::Zstd) {
        return "COMPRESSION zstd, COMPRESSION_LEVEL " + std::to_string(options.compression_level);
    }
    return "COMPRESSION " + parquet_codec_name(options.codec);
}

std::string DuckSession::copy_to_parquet_sql(const std::vector<TableColumn>& columns,
                                             const std::string& target,
                                             const ParquetOptions& options) {
    const bool v2 = std::none_of(columns.begin(), columns.end(),
                                 [](const TableColumn& c) { return has_int32(c.type); });
    return "COPY (SELECT * FROM taco_stream()) TO " + quote_literal(target) + " (FORMAT parquet, " +
           parquet_codec_clause(options) + ", ROW_GROUP_SIZE " +
           std::to_string(options.row_group_size) + (v2 ? ", PARQUET_VERSION V2" : "") +
           ", USE_TMP_FILE false)";
}

void DuckSession::write_parquet(const std::vector<TableColumn>& columns, const std::string& path,
                                const ParquetOptions& options) {
    io::TraceScope t("duckdb: COPY to parquet");
    // A target whose path is not UTF-8 is written through /proc/self/fd/N of its directory.
    const paths::SqlPath target = paths::anchor_path(path);
    exec_with_stream(copy_to_parquet_sql(columns, target.text, options), columns);
}

void DuckSession::register_stream() {
    if (!impl_->stream_registered) {
        register_table_function(impl_->con, impl_->stream_function_name, impl_.get(), stream_bind,
                                stream_init, stream_function);
        impl_->stream_registered = true;
    }
}

bool DuckSession::parquet_v2_safe(const std::vector<ColumnType>& columns) {
    return std::none_of(columns.begin(), columns.end(),
                        [](const ColumnType& c) { return has_int32(c.type); });
}

void DuckSession::check_rows(const std::vector<TableColumn>& columns) const {
    size_t rows = columns.empty() ? 0 : columns[0].rows();
    for (const auto& c : columns) {
        if (c.rows() != rows)
            throw SchemaError("column '" + c.name + "' has a different row count");
    }
}

// The SQL names the stream `taco_stream()`; in the catalog it is this session's own name.
std::string DuckSession::own_stream_sql(const std::string& sql) const {
    std::string own = sql;
    const std::string token = "taco_stream()";
    for (size_t at = own.find(token); at != std::string::npos;
         at = own.find(token, at + impl_->stream_function_name.size() + 2))
        own.replace(at, token.size(), impl_->stream_function_name + "()");
    return own;
}

void DuckSession::exec_with_stream(const std::string& sql,
                                   const std::vector<TableColumn>& columns) {
    check_not_inherited();
    check_rows(columns);
    register_stream();
    impl_->stream_columns = &columns;
    try {
        exec(own_stream_sql(sql));
    } catch (...) {
        impl_->stream_columns = nullptr;
        throw;
    }
    impl_->stream_columns = nullptr;
}

DuckSession::StreamStatement DuckSession::prepare_with_stream(
    const std::string& sql, const std::vector<TableColumn>& schema) {
    check_not_inherited();
    register_stream();
    // Binding reads the result columns from the served columns: the schema's, for the plan.
    impl_->stream_columns = &schema;
    Prepared prepared;
    try {
        prepare(impl_->con, own_stream_sql(sql), prepared);
    } catch (...) {
        impl_->stream_columns = nullptr;
        throw;
    }
    impl_->stream_columns = nullptr;
    StreamStatement out(*this, schema, prepared.stmt);
    prepared.stmt = nullptr;  // owned by `out` now
    return out;
}

DuckSession::StreamStatement::StreamStatement(DuckSession& db,
                                              const std::vector<TableColumn>& schema,
                                              void* prepared)
    : db_(&db), prepared_(prepared) {
    for (const TableColumn& c : schema) schema_.emplace_back(c.name, parquet_storage_type(c.type));
}

DuckSession::StreamStatement::StreamStatement(StreamStatement&& other) noexcept
    : db_(other.db_), schema_(std::move(other.schema_)), prepared_(other.prepared_) {
    other.prepared_ = nullptr;
}

DuckSession::StreamStatement::~StreamStatement() {
    auto stmt = static_cast<duckdb_prepared_statement>(prepared_);
    if (stmt) duckdb_destroy_prepare(&stmt);
}

bool DuckSession::StreamStatement::fits(const std::vector<TableColumn>& columns) const {
    if (columns.size() != schema_.size()) return false;
    for (size_t i = 0; i < columns.size(); ++i) {
        if (columns[i].name != schema_[i].first ||
            parquet_storage_type(columns[i].type) != schema_[i].second)
            return false;
    }
    return true;
}

void DuckSession::StreamStatement::run(const std::vector<TableColumn>& columns) {
    db_->check_not_inherited();
    if (!fits(columns))
        throw SchemaError("the columns differ from those the statement was prepared for");
    db_->check_rows(columns);
    io::throw_if_cancelled("running a query");  // as in exec()
    Impl& impl = *db_->impl_;
    impl.stream_columns = &columns;
    try {
        run_prepared(static_cast<duckdb_prepared_statement>(prepared_));
    } catch (...) {
        impl.stream_columns = nullptr;
        throw;
    }
    impl.stream_columns = nullptr;
}

void use_utc(DuckSession& db) {
    try {
        db.exec("SET TimeZone = 'UTC'");
    } catch (const QueryError&) {
        // Without ICU there is no TimeZone setting, and nothing to set.
    }
}

}  // namespace taco::metadata
