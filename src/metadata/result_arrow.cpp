#include "metadata/result_arrow.hpp"

#include <duckdb.h>

#include <algorithm>
#include <exception>
#include <string>
#include <vector>

#include "io/parallel.hpp"
#include "metadata/arrow_batch.hpp"
#include "metadata/duckdb_types.hpp"

namespace taco::metadata {
namespace {

// Batches converted per group at most (see convert_ahead): 64 x 2,048 rows.
constexpr size_t kMaxGroup = 64;
// A chunk with fewer rows shares its Arrow batch with its small neighbours (see plan_batches).
constexpr size_t kSmallChunk = 256;

struct StreamState {
    std::shared_ptr<const ResultTable> table;
    duckdb_arrow_options options = nullptr;
    std::string last_error;
    ArrowColumns how;  // set by get_schema, which a consumer calls first
    /// Batch k holds chunks [batch_start[k], batch_start[k + 1]); planned at the first get_next
    /// (empty until then: a plan ends with the number of chunks).
    std::vector<size_t> batch_start;
    size_t next_batch = 0;  // the first batch not yet converted
    /// Batches converted ahead of the consumer, in order; `ahead[taken..]` are not yet handed
    /// out. `group` is how many batches the next conversion takes.
    std::vector<ArrowArray> ahead;
    size_t taken = 0;
    size_t group = 1;

    void release_ahead() {
        for (size_t i = taken; i < ahead.size(); ++i) {
            if (ahead[i].release) ahead[i].release(&ahead[i]);
        }
        ahead.clear();
        taken = 0;
    }

    ~StreamState() {
        release_ahead();
        if (options) duckdb_destroy_arrow_options(&options);
    }
};

StreamState* state(ArrowArrayStream* s) {
    return static_cast<StreamState*>(s->private_data);
}

int get_schema(ArrowArrayStream* s, ArrowSchema* out) {
    StreamState* st = state(s);
    const auto& schema = st->table->schema();
    std::vector<duckdb_logical_type> types;
    std::vector<const char*> names;
    for (const auto& c : schema) {
        types.push_back(make_logical_type(c.type));
        names.push_back(c.name.c_str());
    }
    duckdb_error_data err =
        duckdb_to_arrow_schema(st->options, types.data(), names.data(), types.size(), out);
    for (auto& t : types) duckdb_destroy_logical_type(&t);
    try {
        throw_if_arrow_error(err);
        st->how = arrow_columns(*st->table, *out);
    } catch (const std::exception& e) {
        st->last_error = e.what();
        return 5;  // EIO
    }
    return 0;
}

// One Arrow batch per chunk, except that consecutive chunks of under kSmallChunk rows share one
// (up to a vector's 2,048 rows). A selective filter leaves DuckDB's chunks nearly empty: a 1 %
// filter of a million rows gives ~490 chunks of ~20 rows, and each batch costs its consumer a
// fixed ~18 us (DuckDB's conversion set-up, pyarrow's import of 12 columns): 9 ms for 10,037
// rows, against ~2 ms as 5 batches. Copying a large chunk would cost more than it saves.
void plan_batches(StreamState& st) {
    const auto& chunks = export_chunks(*st.table, st.how);
    const size_t capacity = duckdb_vector_size();
    size_t open_rows = 0;  // rows of the batch being planned, when it takes small chunks
    for (size_t c = 0; c < chunks.size(); ++c) {
        const size_t n = duckdb_data_chunk_get_size(static_cast<duckdb_data_chunk>(chunks[c]));
        const bool small = n < kSmallChunk;
        if (!small || open_rows == 0 || open_rows + n > capacity) {
            st.batch_start.push_back(c);
            open_rows = 0;
        }
        open_rows = small ? open_rows + n : 0;
    }
    st.batch_start.push_back(chunks.size());
}

// Converts the next group of batches into st.ahead on every core. Each batch converts on its
// own (make_arrow_batch only reads the table), and converting is most of a pyarrow Table's cost:
// 500,000 rows x 12 columns took 67 ms on one core when DuckDB converted every column (14.5 ms
// now, on two; docs/READER.md §4). Groups start at one batch and double up to kMaxGroup, so a
// consumer that takes a batch or two (head(), a preview) converts little more than it takes,
// and one that reads to the end holds at most kMaxGroup converted batches beyond what it has
// taken.
void convert_ahead(StreamState& st) {
    st.release_ahead();
    if (st.batch_start.empty()) plan_batches(st);
    const size_t batches = st.batch_start.size() - 1;
    const size_t first = st.next_batch;
    const size_t n = std::min(st.group, batches - first);
    if (n == 0) return;
    st.ahead.assign(n, ArrowArray{});
    try {
        io::parallel_for(n, 0, [&](size_t i) {
            const size_t b = first + i;
            make_arrow_batch(st.table, st.options, st.how, st.batch_start[b], st.batch_start[b + 1],
                             &st.ahead[i]);
        });
    } catch (...) {
        st.release_ahead();  // the group's batches that did convert
        throw;
    }
    st.next_batch += n;
    st.group = std::min(st.group * 2, kMaxGroup);
}

int get_next(ArrowArrayStream* s, ArrowArray* out) {
    StreamState* st = state(s);
    try {
        if (st->taken == st->ahead.size()) convert_ahead(*st);
    } catch (const std::exception& e) {
        st->last_error = e.what();
        return 5;  // EIO
    }
    if (st->taken == st->ahead.size()) {
        out->release = nullptr;  // end of stream
        return 0;
    }
    *out = st->ahead[st->taken];
    st->ahead[st->taken++].release = nullptr;  // moved to the consumer
    return 0;
}

const char* get_last_error(ArrowArrayStream* s) {
    StreamState* st = state(s);
    return st->last_error.empty() ? nullptr : st->last_error.c_str();
}

void release(ArrowArrayStream* s) {
    delete state(s);
    s->release = nullptr;
}

}  // namespace

void export_arrow_stream(std::shared_ptr<const ResultTable> table, DuckSession& db,
                         ArrowArrayStream* out) {
    auto* st = new StreamState();
    st->table = std::move(table);
    // Until get_schema: DuckDB converts every column.
    st->how.kind.assign(st->table->columns(), ArrowColumns::Kind::ByDuckDB);
    duckdb_connection_get_arrow_options(static_cast<duckdb_connection>(db.raw_connection()),
                                        &st->options);
    out->get_schema = get_schema;
    out->get_next = get_next;
    out->get_last_error = get_last_error;
    out->release = release;
    out->private_data = st;
}

}  // namespace taco::metadata
