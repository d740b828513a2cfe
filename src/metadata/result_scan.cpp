// ResultTable::scan_parquet(): a whole Parquet file read without a query result.
//
// A query result hands its rows over through DuckDB's result collector, which copies every chunk
// once more and puts the chunks back in order for the one thread that fetches them. Here the
// threads that decode also keep what they decoded: the statement is
//
//     SELECT count(*), bool_and(__taco_collect(file_row_number, <columns>))
//     FROM read_parquet(<path>, file_row_number = true)
//
// and __taco_collect, a scalar function registered through the C API, copies each chunk it is
// called with into a chunk of the table, keyed by the chunk's first row number in the file.
// The chunks are put in file order once the statement is done. DuckDB flattens the input of C API
// functions, so every vector arrives as plain data + validity.
#include <duckdb.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <mutex>
#include <type_traits>

#include "metadata/duckdb_bind.hpp"
#include "metadata/duckdb_cells.hpp"
#include "metadata/result_table.hpp"
#include "taco/errors.hpp"

namespace taco::metadata {

namespace {

constexpr const char* kCollectFunction = "__taco_collect";

// Bytes per cell of the types copied as they are; 0 for strings (VARCHAR, BLOB: 16-byte
// duckdb_string_t plus the bytes of long strings); -1 for the types this path does not take.
int cell_width(duckdb_type type) {
    switch (type) {
        case DUCKDB_TYPE_BOOLEAN:
            return 1;
        case DUCKDB_TYPE_INTEGER:
        case DUCKDB_TYPE_FLOAT:
            return 4;
        case DUCKDB_TYPE_BIGINT:
        case DUCKDB_TYPE_DOUBLE:
        case DUCKDB_TYPE_TIMESTAMP:
            return 8;
        case DUCKDB_TYPE_VARCHAR:
        case DUCKDB_TYPE_BLOB:
            return 0;
        default:
            return -1;
    }
}

struct ChunkDeleter {
    void operator()(duckdb_data_chunk chunk) const { duckdb_destroy_data_chunk(&chunk); }
};
using ChunkPtr = std::unique_ptr<std::remove_pointer_t<duckdb_data_chunk>, ChunkDeleter>;

// What one scan collects, from every thread that decodes.
class ScanSink {
  public:
    struct Piece {
        int64_t first_row = 0;
        ChunkPtr chunk;
        std::unique_ptr<char[]> heap;  // the bytes its long strings point at
    };

    ScanSink() = default;
    ScanSink(const ScanSink&) = delete;
    ScanSink& operator=(const ScanSink&) = delete;
    ~ScanSink() {
        for (auto& t : types_) duckdb_destroy_logical_type(&t);
    }

    /// Adds a result column; false when its type is not copied by this path.
    bool add_column(duckdb_logical_type type) {
        const int width = cell_width(duckdb_get_type_id(type));
        types_.push_back(type);  // owned from here on
        widths_.push_back(width);
        return width >= 0;
    }

    /// Copies one input chunk: column 0 is file_row_number, the others are the result columns.
    void collect(duckdb_data_chunk input) {
        const idx_t n = duckdb_data_chunk_get_size(input);
        if (n == 0) return;
        const auto* row_number = static_cast<const int64_t*>(
            duckdb_vector_get_data(duckdb_data_chunk_get_vector(input, 0)));
        for (idx_t i = 1; i < n; ++i) {
            if (row_number[i] != row_number[0] + static_cast<int64_t>(i)) {
                out_of_order_ = true;  // never seen; the caller falls back to a query result
                return;
            }
        }
        Piece piece;
        piece.first_row = row_number[0];
        piece.chunk.reset(duckdb_create_data_chunk(types_.data(), types_.size()));
        size_t heap_bytes = 0;
        for (size_t c = 0; c < types_.size(); ++c) {
            if (widths_[c] == 0)
                heap_bytes += long_string_bytes(duckdb_data_chunk_get_vector(input, c + 1), n);
        }
        if (heap_bytes) piece.heap.reset(new char[heap_bytes]);
        char* heap = piece.heap.get();
        for (size_t c = 0; c < types_.size(); ++c) {
            duckdb_vector in = duckdb_data_chunk_get_vector(input, c + 1);
            duckdb_vector out = duckdb_data_chunk_get_vector(piece.chunk.get(), c);
            const uint64_t* validity = duckdb_vector_get_validity(in);
            if (validity) {
                duckdb_vector_ensure_validity_writable(out);
                std::memcpy(duckdb_vector_get_validity(out), validity,
                            (n + 63) / 64 * sizeof(uint64_t));
            }
            if (widths_[c] > 0) {
                std::memcpy(duckdb_vector_get_data(out), duckdb_vector_get_data(in),
                            n * widths_[c]);
            } else {
                heap = copy_strings(in, out, validity, n, heap);
            }
        }
        duckdb_data_chunk_set_size(piece.chunk.get(), n);
        std::lock_guard lock(mutex_);
        pieces_.push_back(std::move(piece));
    }

    bool out_of_order() const { return out_of_order_; }
    std::vector<Piece>& pieces() { return pieces_; }

  private:
    static size_t long_string_bytes(duckdb_vector in, idx_t n) {
        const auto* s = static_cast<const duckdb_string_t*>(duckdb_vector_get_data(in));
        const uint64_t* validity = duckdb_vector_get_validity(in);
        size_t bytes = 0;
        for (idx_t i = 0; i < n; ++i) {
            if (is_valid(validity, i) && !is_inlined(s[i])) bytes += s[i].value.inlined.length;
        }
        return bytes;
    }

    // Copies the string slots; long strings get their bytes copied to `heap`, which is returned
    // advanced past them. Slots of NULL cells are zeroed (their content is undefined).
    static char* copy_strings(duckdb_vector in, duckdb_vector out, const uint64_t* validity,
                              idx_t n, char* heap) {
        const auto* from = static_cast<const duckdb_string_t*>(duckdb_vector_get_data(in));
        auto* to = static_cast<duckdb_string_t*>(duckdb_vector_get_data(out));
        for (idx_t i = 0; i < n; ++i) {
            if (!is_valid(validity, i)) {
                to[i] = {};
                continue;
            }
            to[i] = from[i];
            if (!is_inlined(from[i])) {
                const uint32_t length = from[i].value.inlined.length;
                std::memcpy(heap, from[i].value.pointer.ptr, length);
                to[i].value.pointer.ptr = heap;
                heap += length;
            }
        }
        return heap;
    }

    std::vector<duckdb_logical_type> types_;  // read by every thread, never changed during a scan
    std::vector<int> widths_;
    std::mutex mutex_;
    std::vector<Piece> pieces_;
    std::atomic<bool> out_of_order_{false};
};

// What a session's __taco_collect serves: the sink of the scan running on it (a connection runs
// one statement at a time).
struct CollectState {
    std::atomic<ScanSink*> active{nullptr};
};

void collect_rows(duckdb_function_info info, duckdb_data_chunk input, duckdb_vector output) {
    auto* state = static_cast<CollectState*>(duckdb_scalar_function_get_extra_info(info));
    std::memset(duckdb_vector_get_data(output), 1, duckdb_data_chunk_get_size(input));
    ScanSink* sink = state->active.load();
    if (!sink) {
        duckdb_scalar_function_set_error(info, "__taco_collect() is internal to tacocore");
        return;
    }
    try {
        sink->collect(input);
    } catch (const std::exception& e) {
        duckdb_scalar_function_set_error(info, e.what());
    }
}

CollectState& collect_state(DuckSession& db) {
    std::shared_ptr<void>& slot = db.module_state("result_scan");
    if (!slot) {
        auto state = std::make_shared<CollectState>();
        duckdb_scalar_function f = duckdb_create_scalar_function();
        duckdb_scalar_function_set_name(f, kCollectFunction);
        duckdb_logical_type any = duckdb_create_logical_type(DUCKDB_TYPE_ANY);
        duckdb_scalar_function_set_varargs(f, any);
        duckdb_destroy_logical_type(&any);
        duckdb_logical_type boolean = duckdb_create_logical_type(DUCKDB_TYPE_BOOLEAN);
        duckdb_scalar_function_set_return_type(f, boolean);
        duckdb_destroy_logical_type(&boolean);
        // Volatile and called on NULLs too: the optimizer must neither fold nor skip a call.
        duckdb_scalar_function_set_volatile(f);
        duckdb_scalar_function_set_special_handling(f);
        duckdb_scalar_function_set_extra_info(f, state.get(), nullptr);
        duckdb_scalar_function_set_function(f, collect_rows);
        const duckdb_state st =
            duckdb_register_scalar_function(static_cast<duckdb_connection>(db.raw_connection()), f);
        duckdb_destroy_scalar_function(&f);
        if (st != DuckDBSuccess) throw QueryError("cannot register the __taco_collect function");
        slot = state;
    }
    return *static_cast<CollectState*>(slot.get());
}

}  // namespace

std::shared_ptr<const ResultTable> ResultTable::scan_parquet(
    DuckSession& db, const std::string& path, const std::vector<std::string>& columns) {
    if (columns.empty()) return nullptr;
    auto con = static_cast<duckdb_connection>(db.raw_connection());
    std::string list;
    for (const std::string& c : columns) list += ", " + quote_identifier(c);
    const std::string file = "read_parquet(" + quote_literal(path);

    // The plain selection: its errors are the file's (or the caller's), reported as fetch()
    // would; its types decide whether the scan can copy the columns as they are.
    Prepared plain;
    prepare(con, "SELECT " + list.substr(2) + " FROM " + file + ")", plain);
    const std::vector<BoundColumn> bound = bound_columns(plain.stmt);
    ScanSink sink;
    for (size_t i = 0; i < bound.size(); ++i) {
        if (bound[i].cast) return nullptr;
        if (!sink.add_column(duckdb_prepared_statement_column_logical_type(plain.stmt, i)))
            return nullptr;
    }

    // What only this path needs can fail where a plain query works (a column of the file named
    // file_row_number): then the plain query it is.
    Prepared scan;
    CollectState* state = nullptr;
    try {
        state = &collect_state(db);
        prepare(con,
                std::string("SELECT count(*), bool_and(") + kCollectFunction + "(file_row_number" +
                    list + ")) FROM " + file + ", file_row_number = true)",
                scan);
    } catch (const QueryError&) {
        return nullptr;
    }
    duckdb_result result;
    state->active = &sink;
    const duckdb_state st = duckdb_execute_prepared(scan.stmt, &result);
    state->active = nullptr;
    if (st != DuckDBSuccess) {
        // Reading the file failed (the function itself only fails when out of memory).
        std::string message = duckdb_result_error(&result);
        duckdb_destroy_result(&result);
        throw QueryError(message);
    }
    const int64_t rows = duckdb_value_int64(&result, 0, 0);
    duckdb_destroy_result(&result);
    if (sink.out_of_order()) return nullptr;

    std::vector<ScanSink::Piece>& pieces = sink.pieces();
    std::sort(pieces.begin(), pieces.end(), [](const ScanSink::Piece& a, const ScanSink::Piece& b) {
        return a.first_row < b.first_row;
    });
    int64_t next = 0;
    for (const ScanSink::Piece& p : pieces) {
        if (p.first_row != next) return nullptr;  // a gap or an overlap: not a plain scan
        next += static_cast<int64_t>(duckdb_data_chunk_get_size(p.chunk.get()));
    }
    if (next != rows) return nullptr;

    std::shared_ptr<ResultTable> table(new ResultTable());
    for (const BoundColumn& c : bound) table->schema_.push_back({c.name, c.type});
    for (ScanSink::Piece& p : pieces) {
        table->add_chunk(p.chunk.release());
        if (p.heap) table->heaps_.push_back(std::move(p.heap));
    }
    table->finish();
    return table;
}

}  // namespace taco::metadata
