#include "metadata/parquet_slices.hpp"

#include <duckdb.h>

#include <algorithm>
#include <atomic>
#include <optional>
#include <stdexcept>
#include <vector>

#include "io/cancel.hpp"
#include "io/memfd.hpp"
#include "io/trace.hpp"
#include "metadata/duckdb_bind.hpp"
#include "metadata/encoder_pool.hpp"
#include "taco/errors.hpp"

namespace taco::metadata {
namespace {

// The query's rows as DuckDB returned them: chunks of up to duckdb_vector_size() rows, read (never
// changed) by every connection's table function at once.
struct HeldRows {
    std::vector<std::string> names;
    std::vector<duckdb_logical_type> types;
    std::vector<duckdb_data_chunk> chunks;
    std::vector<size_t> starts;                  // first row of each chunk, then the row count
    duckdb_selection_vector identity = nullptr;  // 0, 1, 2, ... : copy_sel copies a plain range

    HeldRows() { starts.push_back(0); }
    ~HeldRows() {
        for (auto& t : types) duckdb_destroy_logical_type(&t);
        for (auto& c : chunks) duckdb_destroy_data_chunk(&c);
        if (identity) duckdb_destroy_selection_vector(identity);
    }
    size_t rows() const { return starts.back(); }

    // Copies rows [from, from + n) into `output` from its row 0 (n <= duckdb_vector_size()).
    void copy_rows(size_t from, size_t n, duckdb_data_chunk output) const {
        size_t c = static_cast<size_t>(std::upper_bound(starts.begin(), starts.end(), from) -
                                       starts.begin()) -
                   1;
        for (size_t done = 0; done < n; ++c) {
            const size_t in_chunk = from + done - starts[c];
            const size_t take = std::min(n - done, starts[c + 1] - starts[c] - in_chunk);
            for (size_t col = 0; col < types.size(); ++col) {
                duckdb_vector_copy_sel(duckdb_data_chunk_get_vector(chunks[c], col),
                                       duckdb_data_chunk_get_vector(output, col), identity,
                                       in_chunk + take, in_chunk, done);
            }
            done += take;
        }
    }
};

// What one connection's table function serves while a COPY runs: rows [position, end).
struct Cursor {
    const HeldRows* rows = nullptr;
    size_t position = 0;
    size_t end = 0;
};

void slices_bind(duckdb_bind_info info) {
    auto* cursor = static_cast<Cursor*>(duckdb_bind_get_extra_info(info));
    if (!cursor->rows) {
        duckdb_bind_set_error(info, "taco_slices() called with no rows to serve");
        return;
    }
    for (size_t i = 0; i < cursor->rows->types.size(); ++i)
        duckdb_bind_add_result_column(info, cursor->rows->names[i].c_str(), cursor->rows->types[i]);
}

void slices_init(duckdb_init_info info) {
    duckdb_init_set_max_threads(info, 1);
}

void slices_function(duckdb_function_info info, duckdb_data_chunk output) {
    auto* cursor = static_cast<Cursor*>(duckdb_function_get_extra_info(info));
    const size_t n = std::min<size_t>(duckdb_vector_size(), cursor->end - cursor->position);
    cursor->rows->copy_rows(cursor->position, n, output);
    duckdb_data_chunk_set_size(output, n);
    cursor->position += n;
}

// The table function of one connection, registered once under a name of its own (the catalog is
// the database's, shared by its connections). Kept as the session's module state: DuckDB's
// catalog entry points at the cursor until the database closes.
struct SliceFunction {
    std::string name;
    Cursor cursor;
};

SliceFunction& slice_function(DuckSession& db) {
    std::shared_ptr<void>& slot = db.module_state("parquet_slices");
    if (!slot) {
        static std::atomic<uint64_t> functions{0};
        auto state = std::make_shared<SliceFunction>();
        state->name = "taco_slices_" + std::to_string(functions++);
        register_table_function(static_cast<duckdb_connection>(db.raw_connection()), state->name,
                                &state->cursor, slices_bind, slices_init, slices_function);
        slot = state;
    }
    return *static_cast<SliceFunction*>(slot.get());
}

// One connection's COPY of a range into its memfd, prepared once.
class SliceWriter {
  public:
    SliceWriter(DuckSession& db, const HeldRows& rows, const std::string& copy_options)
        : db_(db), rows_(rows), function_(slice_function(db)), mem_("taco-parquet-slices") {
        // Binding (at prepare) reads the result columns from the cursor's rows.
        function_.cursor.rows = &rows_;
        prepare(static_cast<duckdb_connection>(db.raw_connection()),
                "COPY (SELECT * FROM " + function_.name + "()) TO " +
                    quote_literal(mem_.proc_path()) + " (" + copy_options + ")",
                copy_);
    }
    ~SliceWriter() {
        if (function_.cursor.rows == &rows_) function_.cursor.rows = nullptr;
    }

    std::string encode(size_t begin, size_t end) {
        if (begin > end || end > rows_.rows()) {
            throw std::out_of_range("ParquetSlices: rows " + std::to_string(begin) + ".." +
                                    std::to_string(end) + " of " + std::to_string(rows_.rows()));
        }
        db_.check_not_inherited();
        io::throw_if_cancelled("writing Parquet");
        mem_.clear();
        // Another series of this session may have served its rows since.
        function_.cursor.rows = &rows_;
        function_.cursor.position = begin;
        function_.cursor.end = end;
        run_prepared(copy_.stmt);
        return mem_.read_all();
    }

  private:
    DuckSession& db_;
    const HeldRows& rows_;
    SliceFunction& function_;
    io::MemFd mem_;
    Prepared copy_;
};

}  // namespace

struct ParquetSlices::Impl {
    HeldRows rows;  // before the pool: its writers read the rows until they go
    std::optional<EncoderPool<SliceWriter>> pool;
};

ParquetSlices::ParquetSlices(DuckSession& db, const std::string& select, std::string copy_options)
    : impl_(std::make_unique<Impl>()) {
    db.check_not_inherited();
    HeldRows& held = impl_->rows;
    duckdb_result result;
    if (duckdb_query(static_cast<duckdb_connection>(db.raw_connection()), select.c_str(),
                     &result) != DuckDBSuccess) {
        std::string msg = duckdb_result_error(&result);
        duckdb_destroy_result(&result);
        throw QueryError(msg);
    }
    for (idx_t c = 0; c < duckdb_column_count(&result); ++c) {
        held.names.emplace_back(duckdb_column_name(&result, c));
        held.types.push_back(duckdb_column_logical_type(&result, c));
    }
    while (duckdb_data_chunk chunk = duckdb_fetch_chunk(result)) {
        if (duckdb_data_chunk_get_size(chunk) == 0) {
            duckdb_destroy_data_chunk(&chunk);
            continue;
        }
        held.chunks.push_back(chunk);
        held.starts.push_back(held.starts.back() + duckdb_data_chunk_get_size(chunk));
    }
    const char* error = duckdb_result_error(&result);
    std::string message = error ? error : "";
    duckdb_destroy_result(&result);
    if (!message.empty()) throw QueryError(message);
    const idx_t width = duckdb_vector_size();
    held.identity = duckdb_create_selection_vector(width);
    sel_t* at = duckdb_selection_vector_get_data_ptr(held.identity);
    for (idx_t i = 0; i < width; ++i) at[i] = static_cast<sel_t>(i);
    impl_->pool.emplace(db, encoder_threads(),
                        [&held, options = std::move(copy_options)](DuckSession& on) {
                            return std::make_unique<SliceWriter>(on, held, options);
                        });
}

ParquetSlices::~ParquetSlices() = default;

size_t ParquetSlices::rows() const {
    return impl_->rows.rows();
}

std::string ParquetSlices::encode(size_t begin, size_t end) {
    return impl_->pool->with_encoder([&](SliceWriter& w) { return w.encode(begin, end); });
}

void ParquetSlices::encode_all(size_t n,
                               const std::function<std::pair<size_t, size_t>(size_t)>& range,
                               const std::function<void(size_t, std::string&)>& take) {
    io::TraceScope t("duckdb: COPY slices to parquet");
    impl_->pool->encode(
        n,
        [&](SliceWriter& w, size_t k) {
            const auto [begin, end] = range(k);
            return w.encode(begin, end);
        },
        take);
}

}  // namespace taco::metadata
