#include "metadata/result_table.hpp"

#include <duckdb.h>

#include "metadata/duckdb_bind.hpp"
#include "metadata/duckdb_cells.hpp"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "io/parallel.hpp"
#include "taco/errors.hpp"

namespace taco::metadata {

struct ResultTable::Vec {
    const void* data = nullptr;
    const uint64_t* validity = nullptr;  // nullptr: every row valid
    std::unique_ptr<Vec> child;          // LIST, MAP, ARRAY: the element (MAP: entry) vector
    std::vector<Vec> fields;             // STRUCT: one vector per field
};

namespace {

Value value_of(const ResultTable::Vec& vec, size_t index, const DataType& type);

// Records where the cells of `v` (of TACO type `type`) and of its children live.
void bind_vec(ResultTable::Vec& target, duckdb_vector v, const DataType& type) {
    target.data = duckdb_vector_get_data(v);
    target.validity = duckdb_vector_get_validity(v);
    switch (type.id()) {
        case TypeId::List:
        case TypeId::Map:
            target.child = std::make_unique<ResultTable::Vec>();
            bind_vec(*target.child, duckdb_list_vector_get_child(v),
                     type.id() == TypeId::Map ? type.map_entry() : type.element());
            break;
        case TypeId::FixedList:
            target.child = std::make_unique<ResultTable::Vec>();
            bind_vec(*target.child, duckdb_array_vector_get_child(v), type.element());
            break;
        case TypeId::Struct:
            target.fields.resize(type.field_count());
            for (size_t i = 0; i < type.field_count(); ++i)
                bind_vec(target.fields[i], duckdb_struct_vector_get_child(v, i),
                         type.field_type(i));
            break;
        default:
            break;
    }
}

}  // namespace

std::vector<ColumnType> describe_query(DuckSession& db, const std::string& sql) {
    Prepared p;
    prepare(static_cast<duckdb_connection>(db.raw_connection()), sql, p);
    std::vector<ColumnType> out;
    for (auto& c : bound_columns(p.stmt)) out.push_back({std::move(c.name), std::move(c.type)});
    return out;
}

std::vector<std::string> columns_read_through_a_cast(DuckSession& db, const std::string& sql) {
    Prepared p;
    prepare(static_cast<duckdb_connection>(db.raw_connection()), sql, p);
    std::vector<std::string> out;
    for (auto& c : bound_columns(p.stmt))
        if (c.cast) out.push_back(std::move(c.name));
    return out;
}

namespace {

// Runs `stmt`. Streaming hands over chunks as DuckDB produces them: no materialized copy of the
// whole result next to ours (half the peak memory), and faster on a million rows. But DuckDB
// 1.4.4 ends a streaming result early on some plans: a UNION ALL of hundreds of views whose
// branches carry WITH clauses (a concatenation of many datasets) lost rows, while count(*) and
// a materialized result had them all (tests/unit/test_concat_scale.cpp). Those plans are run
// materialized.
duckdb_state execute(duckdb_prepared_statement stmt, duckdb_result* result, bool materialize) {
    return materialize ? duckdb_execute_prepared(stmt, result)
                       : duckdb_execute_prepared_streaming(stmt, result);
}

}  // namespace

std::shared_ptr<const ResultTable> ResultTable::fetch(DuckSession& db, const std::string& sql,
                                                      const ColumnFilter& keep, bool materialize) {
    auto con = static_cast<duckdb_connection>(db.raw_connection());
    Prepared first;
    prepare(con, sql, first);
    std::vector<BoundColumn> bound = bound_columns(first.stmt);

    // Rewrite only when a column is dropped or cast. Columns are taken by position (#k) because
    // a result may repeat a name (SELECT a.id, b.id ...), which a sub-query would rename.
    std::vector<size_t> kept;
    bool rewrite = false;
    for (size_t i = 0; i < bound.size(); ++i) {
        if (keep && !keep(bound[i].name)) {
            rewrite = true;
            continue;
        }
        kept.push_back(i);
        rewrite = rewrite || bound[i].cast;
    }

    std::shared_ptr<ResultTable> table(new ResultTable());
    if (kept.empty() && !bound.empty()) {
        // Every column was dropped: only the row count remains.
        Prepared counted;
        prepare(con, "SELECT count(*) FROM (\n" + sql + "\n)", counted);
        duckdb_result r;
        if (duckdb_execute_prepared(counted.stmt, &r) != DuckDBSuccess) {
            std::string msg = duckdb_result_error(&r);
            duckdb_destroy_result(&r);
            throw QueryError(msg);
        }
        table->rows_ = static_cast<size_t>(duckdb_value_int64(&r, 0, 0));
        duckdb_destroy_result(&r);
        return table;
    }

    Prepared rewritten;
    duckdb_prepared_statement stmt = first.stmt;
    if (rewrite) {
        std::string select;
        for (size_t i : kept) {
            std::string ref = "#" + std::to_string(i + 1);
            if (bound[i].cast) ref = "CAST(" + ref + " AS " + bound[i].type.sql_name() + ")";
            select += (select.empty() ? "" : ", ") + ref + " AS " + quote_identifier(bound[i].name);
        }
        prepare(con, "SELECT " + select + " FROM (\n" + sql + "\n)", rewritten);
        stmt = rewritten.stmt;
    }
    for (size_t i : kept) table->schema_.push_back({bound[i].name, bound[i].type});

    duckdb_result result;
    if (execute(stmt, &result, materialize) != DuckDBSuccess) {
        std::string msg = duckdb_result_error(&result);
        duckdb_destroy_result(&result);
        throw QueryError(msg);
    }
    while (duckdb_data_chunk chunk = duckdb_fetch_chunk(result)) table->add_chunk(chunk);
    const char* error = duckdb_result_error(&result);
    std::string message = error ? error : "";
    duckdb_destroy_result(&result);
    if (!message.empty()) throw QueryError(message);
    table->finish();
    return table;
}

void ResultTable::stream(DuckSession& db, const std::string& sql,
                         const std::function<void(std::shared_ptr<const ResultTable>)>& batch,
                         bool materialize) {
    auto con = static_cast<duckdb_connection>(db.raw_connection());
    Prepared first;
    prepare(con, sql, first);
    const std::vector<BoundColumn> bound = bound_columns(first.stmt);
    std::string select;
    bool rewrite = false;
    for (size_t i = 0; i < bound.size(); ++i) {
        std::string ref = "#" + std::to_string(i + 1);
        if (bound[i].cast) ref = "CAST(" + ref + " AS " + bound[i].type.sql_name() + ")";
        rewrite = rewrite || bound[i].cast;
        select += (select.empty() ? "" : ", ") + ref + " AS " + quote_identifier(bound[i].name);
    }
    Prepared rewritten;
    duckdb_prepared_statement stmt = first.stmt;
    if (rewrite) {
        prepare(con, "SELECT " + select + " FROM (\n" + sql + "\n)", rewritten);
        stmt = rewritten.stmt;
    }
    duckdb_result result;
    if (execute(stmt, &result, materialize) != DuckDBSuccess) {
        std::string msg = duckdb_result_error(&result);
        duckdb_destroy_result(&result);
        throw QueryError(msg);
    }
    struct ResultGuard {
        duckdb_result* r;
        ~ResultGuard() { duckdb_destroy_result(r); }
    } guard{&result};
    while (duckdb_data_chunk chunk = duckdb_fetch_chunk(result)) {
        std::shared_ptr<ResultTable> table(new ResultTable());
        for (const BoundColumn& c : bound) table->schema_.push_back({c.name, c.type});
        table->add_chunk(chunk);
        table->finish();
        batch(std::move(table));
    }
    const char* error = duckdb_result_error(&result);
    if (error && *error) throw QueryError(error);
}

void ResultTable::add_chunk(void* handle) {
    auto chunk = static_cast<duckdb_data_chunk>(handle);
    const idx_t n = duckdb_data_chunk_get_size(chunk);
    if (n == 0) {
        duckdb_destroy_data_chunk(&chunk);
        return;
    }
    chunks_.push_back(chunk);
    chunk_start_.push_back(rows_);
    rows_ += n;
    const size_t ncol = schema_.size();
    std::vector<Vec>& vecs = vectors_.emplace_back(ncol);
    for (size_t c = 0; c < ncol; ++c)
        bind_vec(vecs[c], duckdb_data_chunk_get_vector(chunk, c), schema_[c].type);
}

void ResultTable::finish() {
    // Random access divides by the chunk size when the chunks are equal (the usual case), and
    // falls back to a binary search over chunk starts otherwise.
    const size_t nchunks = chunks_.size();
    if (nchunks == 0) return;
    const size_t first_size = nchunks > 1 ? chunk_start_[1] : rows_;
    bool uniform = true;
    for (size_t i = 1; i + 1 < nchunks && uniform; ++i) {
        uniform = chunk_start_[i + 1] - chunk_start_[i] == first_size;
    }
    uniform_chunk_rows_ = uniform ? first_size : 0;
    uniform_chunk_shift_ = -1;
    if (uniform && (first_size & (first_size - 1)) == 0) {
        uniform_chunk_shift_ = 0;
        while ((size_t{1} << uniform_chunk_shift_) < first_size) ++uniform_chunk_shift_;
    }
}

namespace {

// Points `slot` at `text` the way DuckDB stores strings: up to 12 bytes inline, longer ones as
// a 4-byte prefix plus a pointer (the bytes must outlive every use of the vector).
void set_string(duckdb_string_t& slot, const char* text, uint32_t length) {
    slot = {};
    slot.value.inlined.length = length;
    if (length <= sizeof slot.value.inlined.inlined) {
        std::memcpy(slot.value.inlined.inlined, text, length);
    } else {
        std::memcpy(slot.value.pointer.prefix, text, sizeof slot.value.pointer.prefix);
        slot.value.pointer.ptr = const_cast<char*>(text);
    }
}

// Whether a String cell is NULL or starts with `prefix` (HiddenRows). Inline or not, a string's
// first 4 bytes sit at the same place, so a mismatch there settles it without the heap.
bool hides(const ResultTable::Vec& v, size_t i, std::string_view prefix) {
    if (!is_valid(v.validity, i)) return true;
    const auto& s = static_cast<const duckdb_string_t*>(v.data)[i];
    if (s.value.inlined.length < prefix.size()) return false;
    const size_t head = std::min<size_t>(prefix.size(), sizeof s.value.pointer.prefix);
    if (std::memcmp(s.value.pointer.prefix, prefix.data(), head) != 0) return false;
    return string_of(v.data, i).substr(0, prefix.size()) == prefix;
}

// Whether any of the first `n` cells may hide its row: a NULL, or a string whose length and
// first 4 bytes match the prefix. One pass with no calls; false settles the usual chunk (nothing
// to hide), true sends it through hides() row by row.
bool may_hide_any(const ResultTable::Vec& v, size_t n, std::string_view prefix) {
    if (v.validity) {
        for (size_t w = 0; w < n / 64; ++w)
            if (v.validity[w] != ~uint64_t{0}) return true;
        for (size_t i = n / 64 * 64; i < n; ++i)
            if (!is_valid(v.validity, i)) return true;
    }
    const auto* s = static_cast<const duckdb_string_t*>(v.data);
    const size_t head = std::min<size_t>(prefix.size(), sizeof s->value.pointer.prefix);
    char want[sizeof s->value.pointer.prefix] = {};
    std::memcpy(want, prefix.data(), head);
    uint32_t want_word;
    std::memcpy(&want_word, want, sizeof want_word);
    const uint32_t mask = head >= 4 ? ~uint32_t{0} : (uint32_t{1} << (8 * head)) - 1;
    bool any = false;
    for (size_t i = 0; i < n; ++i) {
        uint32_t word;
        std::memcpy(&word, s[i].value.pointer.prefix, sizeof word);
        any |= (word & mask) == want_word && s[i].value.inlined.length >= prefix.size();
    }
    return any;
}

// Builds result chunks on up to two threads when there are enough of them: the work is
// memory-bound, more threads would only contend.
void for_each_chunk(size_t n, const std::function<void(size_t)>& fn) {
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    io::parallel_for(n, n >= 8 ? std::min(2u, cores) : 1u, fn);
}

}  // namespace

// The computed column of a derived table: what fills it, and which chunks are filled.
struct ResultTable::LazyColumn {
    size_t column = 0;
    std::shared_ptr<const ResultTable> source;  // the rows `value` reads
    StringColumn value;
    std::vector<size_t> source_chunk;        // per chunk: the source chunk it came from
    std::vector<std::vector<sel_t>> picked;  // per chunk: its source rows (empty: all of them)
    std::unique_ptr<std::once_flag[]> filled;
    std::once_flag all_filled;
    std::vector<std::string> arenas;  // per chunk: the text its strings point into
};

std::shared_ptr<const ResultTable> ResultTable::derive(std::shared_ptr<const ResultTable> src,
                                                       const std::vector<size_t>& columns,
                                                       const HiddenRows& hidden,
                                                       const std::string& name,
                                                       const StringColumn& value) {
    auto table = derive_lazy(std::move(src), columns, hidden, name, value);
    table->fill_all();
    // Everything is made: `value` (which may refer to the caller's locals) is not kept.
    table->lazy_->value = nullptr;
    return table;
}

std::shared_ptr<const ResultTable> ResultTable::derive_lazy(std::shared_ptr<const ResultTable> src,
                                                            const std::vector<size_t>& columns,
                                                            const HiddenRows& hidden,
                                                            const std::string& name,
                                                            StringColumn value) {
    std::shared_ptr<ResultTable> table(new ResultTable());
    for (size_t c : columns) table->schema_.push_back(src->schema_.at(c));
    table->schema_.push_back({name, DataType::string()});

    // Chunks are independent, so they are built in parallel. Their computed strings are not:
    // fill() writes them on first use, into an arena the string vector points at (DuckDB's
    // per-string C API call would copy every string into the vector's heap and check its UTF-8).
    const size_t nchunks = src->chunks_.size();
    std::vector<duckdb_data_chunk> built(nchunks, nullptr);
    std::vector<std::vector<sel_t>> picked(nchunks);
    // Only the chunks that hold rows of [hidden.first, hidden.last): one file's share of a
    // multi-file read is a chunk or two of many, and a handful is built without threads.
    const auto& starts = src->chunk_start_;
    const size_t k_begin = static_cast<size_t>(std::max<std::ptrdiff_t>(
        0, std::upper_bound(starts.begin(), starts.begin() + nchunks, hidden.first) -
               starts.begin() - 1));
    const size_t k_end = static_cast<size_t>(
        std::lower_bound(starts.begin(), starts.begin() + nchunks, hidden.last) - starts.begin());
    try {
        for_each_chunk(k_end > k_begin ? k_end - k_begin : 0, [&](size_t j) {
            const size_t k = k_begin + j;
            auto from = static_cast<duckdb_data_chunk>(src->chunks_[k]);
            const size_t n = duckdb_data_chunk_get_size(from);
            const Vec& key = src->vectors_[k][hidden.column];
            // The part of this chunk inside [hidden.first, hidden.last).
            const size_t base = src->chunk_start_[k];
            const size_t lo = std::min(n, hidden.first > base ? hidden.first - base : 0);
            const size_t hi = std::min(n, hidden.last > base ? hidden.last - base : 0);
            if (lo >= hi) return;
            std::vector<sel_t>& keep = picked[k];  // empty: every row
            if (lo > 0 || hi < n || may_hide_any(key, n, hidden.prefix)) {
                keep.reserve(hi - lo);
                for (size_t i = lo; i < hi; ++i)
                    if (!hides(key, i, hidden.prefix)) keep.push_back(static_cast<sel_t>(i));
                if (keep.empty()) return;
                if (keep.size() == n) keep = {};
            }
            const size_t kept = keep.empty() ? n : keep.size();

            std::vector<duckdb_logical_type> types(columns.size() + 1);
            for (size_t j = 0; j < columns.size(); ++j) {
                types[j] =
                    duckdb_vector_get_column_type(duckdb_data_chunk_get_vector(from, columns[j]));
            }
            types.back() = duckdb_create_logical_type(DUCKDB_TYPE_VARCHAR);
            duckdb_data_chunk to = duckdb_create_data_chunk(types.data(), types.size());
            for (auto& t : types) duckdb_destroy_logical_type(&t);
            duckdb_selection_vector sel = nullptr;
            if (kept != n) {
                sel = duckdb_create_selection_vector(kept);
                std::copy(keep.begin(), keep.end(), duckdb_selection_vector_get_data_ptr(sel));
            }
            for (size_t j = 0; j < columns.size(); ++j) {
                duckdb_vector in = duckdb_data_chunk_get_vector(from, columns[j]);
                duckdb_vector out = duckdb_data_chunk_get_vector(to, j);
                // A fully kept chunk shares the source's buffers; otherwise the kept rows are
                // copied.
                if (sel) {
                    duckdb_vector_copy_sel(in, out, sel, kept, 0, 0);
                } else {
                    duckdb_vector_reference_vector(out, in);
                }
            }
            if (sel) duckdb_destroy_selection_vector(sel);
            // Made writable now so the validity pointer the table records stays valid.
            duckdb_vector_ensure_validity_writable(
                duckdb_data_chunk_get_vector(to, columns.size()));
            duckdb_data_chunk_set_size(to, kept);
            built[k] = to;
        });
    } catch (...) {
        for (auto& chunk : built)
            if (chunk) duckdb_destroy_data_chunk(&chunk);
        throw;
    }
    auto lazy = std::make_unique<LazyColumn>();
    lazy->column = columns.size();
    for (size_t k = 0; k < nchunks; ++k) {
        if (!built[k]) continue;
        table->add_chunk(built[k]);
        lazy->source_chunk.push_back(k);
        lazy->picked.push_back(std::move(picked[k]));
    }
    lazy->filled = std::make_unique<std::once_flag[]>(lazy->source_chunk.size());
    lazy->arenas.resize(lazy->source_chunk.size());
    lazy->source = std::move(src);
    lazy->value = std::move(value);
    table->lazy_ = std::move(lazy);
    table->finish();
    return table;
}

void ResultTable::fill(size_t chunk) const {
    LazyColumn& lazy = *lazy_;
    std::call_once(lazy.filled[chunk], [&] {
        const ChunkRows rows(*lazy.source, lazy.source_chunk[chunk]);
        const std::vector<sel_t>& picked = lazy.picked[chunk];
        auto to = static_cast<duckdb_data_chunk>(chunks_[chunk]);
        const size_t kept = duckdb_data_chunk_get_size(to);
        // The arena is moved, never copied: its heap buffer (and the pointers into it) stays put.
        std::string text, arena;
        std::vector<std::pair<uint64_t, uint32_t>> spans(kept);  // (arena offset, length)
        std::vector<bool> present(kept);
        for (size_t r = 0; r < kept; ++r) {
            present[r] = lazy.value(rows, picked.empty() ? r : picked[r], text);
            if (!present[r]) continue;
            if (arena.empty()) arena.reserve((kept - r) * (text.size() + 8) + 64);
            spans[r] = {arena.size(), static_cast<uint32_t>(text.size())};
            arena += text;
        }
        arena.reserve(64);  // heap-allocated even when short, so moving keeps its address
        duckdb_vector strings = duckdb_data_chunk_get_vector(to, lazy.column);
        auto* slots = static_cast<duckdb_string_t*>(duckdb_vector_get_data(strings));
        uint64_t* validity = duckdb_vector_get_validity(strings);
        for (size_t r = 0; r < kept; ++r) {
            if (present[r]) {
                set_string(slots[r], arena.data() + spans[r].first, spans[r].second);
            } else {
                duckdb_validity_set_row_invalid(validity, r);
            }
        }
        lazy.arenas[chunk] = std::move(arena);
    });
}

void ResultTable::fill_all() const {
    if (!lazy_) return;
    std::call_once(lazy_->all_filled,
                   [this] { for_each_chunk(chunks_.size(), [this](size_t k) { fill(k); }); });
}

std::optional<size_t> ResultTable::computed_column() const {
    if (!lazy_ || !lazy_->value) return std::nullopt;
    return lazy_->column;
}

bool ResultTable::compute_cell(size_t chunk, size_t i, std::string& out) const {
    const LazyColumn& lazy = *lazy_;
    const std::vector<sel_t>& picked = lazy.picked[chunk];
    return lazy.value(ChunkRows(*lazy.source, lazy.source_chunk[chunk]),
                      picked.empty() ? i : picked[i], out);
}

const std::vector<void*>& ResultTable::raw_chunks() const {
    fill_all();
    return chunks_;
}

std::shared_ptr<const ResultTable> ResultTable::empty() {
    static const std::shared_ptr<const ResultTable> instance(new ResultTable());
    return instance;
}

ResultTable::ResultTable() = default;

ResultTable::~ResultTable() {
    for (void* c : chunks_) {
        auto chunk = static_cast<duckdb_data_chunk>(c);
        duckdb_destroy_data_chunk(&chunk);
    }
}

ResultTable::ChunkRows::ChunkRows(const ResultTable& t, size_t chunk)
    : table_(t), chunk_(chunk), first_row_(t.chunk_start_[chunk]) {}

bool ResultTable::ChunkRows::is_null(size_t i, size_t col) const {
    if (table_.lazy_ && col == table_.lazy_->column) table_.fill(chunk_);
    return !is_valid(table_.vectors_[chunk_][col].validity, i);
}

std::string_view ResultTable::ChunkRows::get_string(size_t i, size_t col) const {
    if (table_.lazy_ && col == table_.lazy_->column) table_.fill(chunk_);
    const Vec& v = table_.vectors_[chunk_][col];
    return is_valid(v.validity, i) ? string_of(v.data, i) : std::string_view();
}

int64_t ResultTable::ChunkRows::get_int(size_t i, size_t col) const {
    const Vec& v = table_.vectors_[chunk_][col];
    if (!is_valid(v.validity, i)) return 0;
    if (table_.schema_[col].type.id() == TypeId::Int32) {
        return static_cast<const int32_t*>(v.data)[i];
    }
    return static_cast<const int64_t*>(v.data)[i];
}

ResultTable::Cell ResultTable::locate(size_t row, size_t col) const {
    if (row >= rows_ || col >= schema_.size()) {
        throw std::out_of_range("cell (" + std::to_string(row) + ", " + std::to_string(col) +
                                ") outside a result of " + std::to_string(rows_) + " rows and " +
                                std::to_string(schema_.size()) + " columns");
    }
    size_t chunk;
    if (uniform_chunk_shift_ >= 0) {
        chunk = std::min(row >> uniform_chunk_shift_, chunks_.size() - 1);
    } else if (uniform_chunk_rows_) {
        chunk = std::min(row / uniform_chunk_rows_, chunks_.size() - 1);
    } else {
        chunk =
            static_cast<size_t>(std::upper_bound(chunk_start_.begin(), chunk_start_.end(), row) -
                                chunk_start_.begin() - 1);
    }
    if (lazy_ && col == lazy_->column) fill(chunk);
    return {&vectors_[chunk][col], row - chunk_start_[chunk]};
}

const ResultTable::Cell ResultTable::typed(size_t row, size_t col,
                                           std::initializer_list<TypeId> ids,
                                           const char* what) const {
    Cell cell = locate(row, col);
    const TypeId id = schema_[col].type.id();
    if (std::find(ids.begin(), ids.end(), id) == ids.end()) {
        throw SchemaError("column '" + schema_[col].name + "' has type " +
                          schema_[col].type.arrow_name() + "; it cannot be read as " + what);
    }
    return cell;
}

bool ResultTable::is_null(size_t row, size_t col) const {
    Cell cell = locate(row, col);
    return schema_[col].type.is_null() || !is_valid(cell.vec->validity, cell.index);
}

bool ResultTable::get_bool(size_t row, size_t col) const {
    Cell c = typed(row, col, {TypeId::Bool}, "a boolean");
    return is_valid(c.vec->validity, c.index) && static_cast<const bool*>(c.vec->data)[c.index];
}

int64_t ResultTable::get_int(size_t row, size_t col) const {
    Cell c =
        typed(row, col,
              {TypeId::Int32, TypeId::Int64, TypeId::Timestamp, TypeId::TimestampTz, TypeId::Date},
              "an integer");
    if (!is_valid(c.vec->validity, c.index)) return 0;
    if (schema_[col].type.id() == TypeId::Int32 || schema_[col].type.id() == TypeId::Date) {
        return static_cast<const int32_t*>(c.vec->data)[c.index];
    }
    return static_cast<const int64_t*>(c.vec->data)[c.index];
}

double ResultTable::get_double(size_t row, size_t col) const {
    Cell c = typed(row, col, {TypeId::Float32, TypeId::Float64}, "a floating-point number");
    if (!is_valid(c.vec->validity, c.index)) return 0.0;
    if (schema_[col].type.id() == TypeId::Float32) {
        return static_cast<const float*>(c.vec->data)[c.index];
    }
    return static_cast<const double*>(c.vec->data)[c.index];
}

std::string_view ResultTable::get_string(size_t row, size_t col) const {
    Cell c = typed(row, col, {TypeId::String, TypeId::Binary}, "text or bytes");
    if (!is_valid(c.vec->validity, c.index)) return {};
    return string_of(c.vec->data, c.index);
}

void ResultTable::for_each_string(size_t col,
                                  const std::function<void(size_t, std::string_view)>& fn) const {
    if (rows_ > 0) typed(0, col, {TypeId::String, TypeId::Binary}, "text or bytes");
    if (lazy_ && col == lazy_->column) fill_all();
    for (size_t c = 0; c < chunks_.size(); ++c) {
        const Vec& vec = vectors_[c][col];
        const size_t first = chunk_start_[c];
        const size_t n = (c + 1 < chunks_.size() ? chunk_start_[c + 1] : rows_) - first;
        for (size_t i = 0; i < n; ++i) {
            if (is_valid(vec.validity, i)) fn(first + i, string_of(vec.data, i));
        }
    }
}

Value ResultTable::get_value(size_t row, size_t col) const {
    Cell c = locate(row, col);
    return value_of(*c.vec, c.index, schema_[col].type);
}

namespace {

// The text of a DECIMAL cell, from the integer DuckDB stores it as (its width follows the
// precision) and the scale.
std::string decimal_text(const ResultTable::Vec& vec, size_t index, const DataType& type) {
    __int128 x;
    if (type.size() <= 4) {
        x = static_cast<const int16_t*>(vec.data)[index];
    } else if (type.size() <= 9) {
        x = static_cast<const int32_t*>(vec.data)[index];
    } else if (type.size() <= 18) {
        x = static_cast<const int64_t*>(vec.data)[index];
    } else {
        const auto& h = static_cast<const duckdb_hugeint*>(vec.data)[index];
        x = (static_cast<__int128>(h.upper) << 64) | static_cast<__int128>(h.lower);
    }
    const bool negative = x < 0;
    unsigned __int128 u = negative ? -static_cast<unsigned __int128>(x) : x;
    std::string digits;
    do {
        digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(u % 10)));
        u /= 10;
    } while (u);
    const size_t scale = static_cast<size_t>(type.scale());
    if (digits.size() <= scale) digits.insert(0, scale - digits.size() + 1, '0');
    if (scale) digits.insert(digits.size() - scale, ".");
    return (negative ? "-" : "") + digits;
}

Value value_of(const ResultTable::Vec& vec, size_t index, const DataType& type) {
    if (type.is_null() || !is_valid(vec.validity, index)) return Value::null(type);
    switch (type.id()) {
        case TypeId::Bool:
            return Value(static_cast<const bool*>(vec.data)[index]);
        case TypeId::Int32:
            return Value::int32(static_cast<const int32_t*>(vec.data)[index]);
        case TypeId::Int64:
            return Value(static_cast<long long>(static_cast<const int64_t*>(vec.data)[index]));
        case TypeId::Timestamp:
            return Value::timestamp(static_cast<const int64_t*>(vec.data)[index]);
        case TypeId::Float32:
            return Value(static_cast<const float*>(vec.data)[index]);
        case TypeId::Float64:
            return Value(static_cast<const double*>(vec.data)[index]);
        case TypeId::String:
            return Value(std::string(string_of(vec.data, index)));
        case TypeId::Binary:
            return Value::binary(std::string(string_of(vec.data, index)));
        case TypeId::List: {
            const auto entry = static_cast<const duckdb_list_entry*>(vec.data)[index];
            Value::List items;
            items.reserve(entry.length);
            for (uint64_t i = 0; i < entry.length; ++i) {
                items.push_back(value_of(*vec.child, entry.offset + i, type.element()));
            }
            return Value::list(type.element(), std::move(items));
        }
        case TypeId::Date:
            return Value::date(static_cast<const int32_t*>(vec.data)[index]);
        case TypeId::TimestampTz:
            return Value::timestamp_tz(static_cast<const int64_t*>(vec.data)[index]);
        case TypeId::Decimal:
            return Value::decimal(type, decimal_text(vec, index, type));
        case TypeId::Struct: {
            Value::List fields;
            fields.reserve(type.field_count());
            for (size_t i = 0; i < type.field_count(); ++i)
                fields.push_back(value_of(vec.fields[i], index, type.field_type(i)));
            return Value::structure(type, std::move(fields));
        }
        case TypeId::Map: {
            const auto entry = static_cast<const duckdb_list_entry*>(vec.data)[index];
            std::vector<std::pair<Value, Value>> entries;
            entries.reserve(entry.length);
            const ResultTable::Vec& kv = *vec.child;
            for (uint64_t i = 0; i < entry.length; ++i) {
                entries.emplace_back(value_of(kv.fields[0], entry.offset + i, type.field_type(0)),
                                     value_of(kv.fields[1], entry.offset + i, type.field_type(1)));
            }
            return Value::map(type, std::move(entries));
        }
        case TypeId::FixedList: {
            const size_t n = static_cast<size_t>(type.size());
            Value::List items;
            items.reserve(n);
            for (size_t i = 0; i < n; ++i)
                items.push_back(value_of(*vec.child, index * n + i, type.element()));
            return Value::fixed_list(type, std::move(items));
        }
        case TypeId::Null:
            break;
    }
    return Value::null(type);
}

}  // namespace

}  // namespace taco::metadata
