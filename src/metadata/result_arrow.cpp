#include "metadata/result_arrow.hpp"

#include <duckdb.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/parallel.hpp"
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
    /// The table's computed column (derive_lazy), when it is exported as Arrow utf8 ("u") built
    /// here straight from its source rows: no DuckDB strings made and then copied.
    std::optional<size_t> direct_column;
    /// Batch k holds chunks [batch_start[k], batch_start[k + 1]); planned at the first get_next.
    std::vector<size_t> batch_start;
    bool planned = false;
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

// DuckDB's error as an exception (conversions run on several threads: each failure travels as
// its own exception, and only the consumer's thread writes last_error).
void throw_if_error(duckdb_error_data err) {
    if (!err) return;
    if (!duckdb_error_data_has_error(err)) {
        duckdb_destroy_error_data(&err);
        return;
    }
    std::string message = duckdb_error_data_message(err);
    duckdb_destroy_error_data(&err);
    throw std::runtime_error(message);
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
        throw_if_error(err);
    } catch (const std::exception& e) {
        st->last_error = e.what();
        return 5;  // EIO
    }
    // Only plain utf8 (32-bit offsets) is built here; other string layouts DuckDB may be set
    // to produce (large, view) go through DuckDB with the column filled first.
    const auto computed = st->table->computed_column();
    st->direct_column.reset();
    if (computed && std::strcmp(out->children[*computed]->format, "u") == 0) {
        st->direct_column = computed;
    }
    return 0;
}

// One utf8 column made from the computed cells of a chunk, owned by the batch that holds it.
struct Utf8Column {
    ArrowArray array{};
    std::vector<uint8_t> validity;
    std::vector<int32_t> offsets;
    std::string data;
    const void* buffers[3] = {nullptr, nullptr, nullptr};
};

// A batch whose columns are DuckDB's conversion of the other columns plus one Utf8Column.
struct AssembledBatch {
    ArrowArray inner{};  // DuckDB's struct array; releasing it releases its children
    Utf8Column column;
    std::vector<ArrowArray*> children;
    const void* buffers[1] = {nullptr};
};

// Children are freed with their parent (the C data interface lets the parent own them).
void release_child(ArrowArray* a) {
    a->release = nullptr;
}

void release_assembled(ArrowArray* a) {
    auto* batch = static_cast<AssembledBatch*>(a->private_data);
    if (batch->inner.release) batch->inner.release(&batch->inner);
    delete batch;
    a->release = nullptr;
}

// The computed cells of chunks [first, last) as one utf8 column of `rows` rows.
void build_utf8(const ResultTable& table, size_t first, size_t last, size_t rows, Utf8Column& c) {
    c.offsets.resize(rows + 1);
    c.offsets[0] = 0;
    std::string text;
    int64_t nulls = 0;
    size_t row = 0;
    for (size_t chunk = first; chunk < last; ++chunk) {
        const size_t n = duckdb_data_chunk_get_size(
            static_cast<duckdb_data_chunk>(table.chunks_unfilled()[chunk]));
        for (size_t i = 0; i < n; ++i, ++row) {
            if (table.compute_cell(chunk, i, text)) {
                if (c.data.empty()) c.data.reserve((rows - row) * (text.size() + 8));
                c.data += text;
            } else {
                if (c.validity.empty()) c.validity.assign((rows + 7) / 8, 0xFF);
                c.validity[row / 8] &= static_cast<uint8_t>(~(1u << (row % 8)));
                ++nulls;
            }
            c.offsets[row + 1] = static_cast<int32_t>(c.data.size());
        }
    }
    c.buffers[0] = c.validity.empty() ? nullptr : c.validity.data();
    c.buffers[1] = c.offsets.data();
    c.buffers[2] = c.data.data();
    c.array.length = static_cast<int64_t>(rows);
    c.array.null_count = nulls;
    c.array.n_buffers = 3;
    c.array.buffers = c.buffers;
    c.array.release = release_child;
}

// A DuckDB chunk owned here, destroyed with the guard.
struct OwnedChunk {
    duckdb_data_chunk chunk = nullptr;
    ~OwnedChunk() {
        if (chunk) duckdb_destroy_data_chunk(&chunk);
    }
};

// One chunk with the columns of chunks [first, last) except `skip` (SIZE_MAX: none), whose rows
// must fit one vector: a reference to the vectors when there is one chunk, a copy (values,
// validity, strings) of all of them otherwise.
void gather(const std::vector<void*>& chunks, size_t first, size_t last, size_t skip,
            OwnedChunk& out) {
    auto source = [&](size_t k) { return static_cast<duckdb_data_chunk>(chunks[k]); };
    const size_t ncols = duckdb_data_chunk_get_column_count(source(first));
    std::vector<size_t> columns;
    std::vector<duckdb_logical_type> types;
    for (size_t j = 0; j < ncols; ++j) {
        if (j == skip) continue;
        columns.push_back(j);
        types.push_back(
            duckdb_vector_get_column_type(duckdb_data_chunk_get_vector(source(first), j)));
    }
    out.chunk = duckdb_create_data_chunk(types.data(), types.size());
    for (auto& t : types) duckdb_destroy_logical_type(&t);
    if (last - first == 1) {
        for (size_t k = 0; k < columns.size(); ++k) {
            duckdb_vector_reference_vector(duckdb_data_chunk_get_vector(out.chunk, k),
                                           duckdb_data_chunk_get_vector(source(first), columns[k]));
        }
        duckdb_data_chunk_set_size(out.chunk, duckdb_data_chunk_get_size(source(first)));
        return;
    }
    const size_t capacity = duckdb_vector_size();
    duckdb_selection_vector identity = duckdb_create_selection_vector(capacity);
    sel_t* index = duckdb_selection_vector_get_data_ptr(identity);
    for (size_t i = 0; i < capacity; ++i) index[i] = static_cast<sel_t>(i);
    size_t rows = 0;
    for (size_t c = first; c < last; ++c) {
        const size_t n = duckdb_data_chunk_get_size(source(c));
        for (size_t k = 0; k < columns.size(); ++k) {
            duckdb_vector_copy_sel(duckdb_data_chunk_get_vector(source(c), columns[k]),
                                   duckdb_data_chunk_get_vector(out.chunk, k), identity, n, 0,
                                   rows);
        }
        rows += n;
    }
    duckdb_destroy_selection_vector(identity);
    duckdb_data_chunk_set_size(out.chunk, rows);
}

// Batch `b`'s Arrow record batch. With a computed column built here, DuckDB converts the other
// columns and the computed one is slotted in at its place.
void convert_batch(const StreamState& st, size_t b, ArrowArray* out) {
    const size_t first = st.batch_start[b], last = st.batch_start[b + 1];
    const auto& chunks = st.direct_column ? st.table->chunks_unfilled() : st.table->raw_chunks();
    OwnedChunk gathered;
    if (!st.direct_column) {
        if (last - first == 1) {
            throw_if_error(duckdb_data_chunk_to_arrow(
                st.options, static_cast<duckdb_data_chunk>(chunks[first]), out));
            return;
        }
        gather(chunks, first, last, SIZE_MAX, gathered);
        throw_if_error(duckdb_data_chunk_to_arrow(st.options, gathered.chunk, out));
        return;
    }
    const size_t direct = *st.direct_column;
    gather(chunks, first, last, direct, gathered);
    const size_t rows = duckdb_data_chunk_get_size(gathered.chunk);
    const size_t ncols = duckdb_data_chunk_get_column_count(gathered.chunk) + 1;
    auto batch = std::make_unique<AssembledBatch>();
    throw_if_error(duckdb_data_chunk_to_arrow(st.options, gathered.chunk, &batch->inner));
    try {
        build_utf8(*st.table, first, last, rows, batch->column);
    } catch (...) {
        batch->inner.release(&batch->inner);
        throw;
    }
    for (size_t j = 0, k = 0; j < ncols; ++j) {
        batch->children.push_back(j == direct ? &batch->column.array : batch->inner.children[k++]);
    }
    *out = ArrowArray{};
    out->length = static_cast<int64_t>(rows);
    out->n_buffers = 1;
    out->buffers = batch->buffers;
    out->n_children = static_cast<int64_t>(ncols);
    out->children = batch->children.data();
    out->release = release_assembled;
    out->private_data = batch.release();
}

// One Arrow batch per chunk, except that consecutive chunks of under kSmallChunk rows share one
// (up to a vector's 2,048 rows). A selective filter leaves DuckDB's chunks nearly empty: a 1 %
// filter of a million rows gives ~490 chunks of ~20 rows, and each batch costs its consumer a
// fixed ~18 us (DuckDB's conversion set-up, pyarrow's import of 12 columns): 9 ms for 10,037
// rows, against ~1 ms as 5 batches. Copying a large chunk would cost more than it saves.
void plan_batches(StreamState& st) {
    const auto& chunks = st.direct_column ? st.table->chunks_unfilled() : st.table->raw_chunks();
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
    st.planned = true;
}

// Converts the next group of batches into st.ahead on every core. Converting is most of a
// pyarrow Table's cost (~0.13 us per cell: 67 ms for 500,000 rows x 12 columns on one core),
// and each batch converts on its own: DuckDB's conversion, gather() and build_utf8 only read
// the table. Groups start at one batch and double up to kMaxGroup, so a consumer that takes a
// batch or two (head(), a preview) converts little more than it takes, and one that reads to
// the end holds at most kMaxGroup converted batches beyond what it has taken.
void convert_ahead(StreamState& st) {
    st.release_ahead();
    if (!st.planned) plan_batches(st);
    const size_t batches = st.batch_start.size() - 1;
    const size_t first = st.next_batch;
    const size_t n = std::min(st.group, batches - first);
    if (n == 0) return;
    st.ahead.assign(n, ArrowArray{});
    try {
        io::parallel_for(n, 0, [&](size_t i) { convert_batch(st, first + i, &st.ahead[i]); });
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
    duckdb_connection_get_arrow_options(static_cast<duckdb_connection>(db.raw_connection()),
                                        &st->options);
    out->get_schema = get_schema;
    out->get_next = get_next;
    out->get_last_error = get_last_error;
    out->release = release;
    out->private_data = st;
}

}  // namespace taco::metadata
