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

// Chunks converted per group at most (see convert_ahead): 64 x 2,048 rows.
constexpr size_t kMaxGroup = 64;

struct StreamState {
    std::shared_ptr<const ResultTable> table;
    duckdb_arrow_options options = nullptr;
    size_t next_chunk = 0;  // the first chunk not yet converted
    std::string last_error;
    /// The table's computed column (derive_lazy), when it is exported as Arrow utf8 ("u") built
    /// here straight from its source rows: no DuckDB strings made and then copied.
    std::optional<size_t> direct_column;
    /// Batches converted ahead of the consumer, in chunk order; `ahead[taken..]` are not yet
    /// handed out. `group` is how many chunks the next conversion takes.
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

void build_utf8(const ResultTable& table, size_t chunk, size_t rows, Utf8Column& c) {
    c.offsets.resize(rows + 1);
    c.offsets[0] = 0;
    std::string text;
    int64_t nulls = 0;
    for (size_t i = 0; i < rows; ++i) {
        if (table.compute_cell(chunk, i, text)) {
            if (c.data.empty()) c.data.reserve((rows - i) * (text.size() + 8));
            c.data += text;
        } else {
            if (c.validity.empty()) c.validity.assign((rows + 7) / 8, 0xFF);
            c.validity[i / 8] &= static_cast<uint8_t>(~(1u << (i % 8)));
            ++nulls;
        }
        c.offsets[i + 1] = static_cast<int32_t>(c.data.size());
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

// A chunk of a table whose computed column is built here: DuckDB converts a chunk that
// references every other column, and the computed column is slotted in at its place.
void convert_assembled(const StreamState& st, duckdb_data_chunk chunk, size_t index,
                       ArrowArray* out) {
    const size_t direct = *st.direct_column;
    const size_t ncols = duckdb_data_chunk_get_column_count(chunk);
    const size_t rows = duckdb_data_chunk_get_size(chunk);
    std::vector<duckdb_logical_type> types;
    for (size_t j = 0; j < ncols; ++j) {
        if (j == direct) continue;
        types.push_back(duckdb_vector_get_column_type(duckdb_data_chunk_get_vector(chunk, j)));
    }
    duckdb_data_chunk others = duckdb_create_data_chunk(types.data(), types.size());
    for (auto& t : types) duckdb_destroy_logical_type(&t);
    for (size_t j = 0, k = 0; j < ncols; ++j) {
        if (j == direct) continue;
        duckdb_vector_reference_vector(duckdb_data_chunk_get_vector(others, k++),
                                       duckdb_data_chunk_get_vector(chunk, j));
    }
    duckdb_data_chunk_set_size(others, rows);
    auto batch = std::make_unique<AssembledBatch>();
    duckdb_error_data err = duckdb_data_chunk_to_arrow(st.options, others, &batch->inner);
    duckdb_destroy_data_chunk(&others);
    throw_if_error(err);
    try {
        build_utf8(*st.table, index, rows, batch->column);
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

// Converts the next group of chunks into st.ahead on every core. Converting is most of a
// pyarrow Table's cost (~0.13 us per cell: 67 ms for 500,000 rows x 12 columns on one core),
// and each chunk converts on its own: DuckDB's conversion and build_utf8 only read the table.
// Groups start at one chunk and double up to kMaxGroup, so a consumer that takes a batch or two
// (head(), a preview) converts little more than it takes, and one that reads to the end holds
// at most kMaxGroup converted chunks beyond what it has taken.
void convert_ahead(StreamState& st) {
    st.release_ahead();
    // raw_chunks() fills a computed column not built here, once, before the threads start.
    const auto& chunks = st.direct_column ? st.table->chunks_unfilled() : st.table->raw_chunks();
    const size_t first = st.next_chunk;
    const size_t n = std::min(st.group, chunks.size() - first);
    if (n == 0) return;
    st.ahead.assign(n, ArrowArray{});
    try {
        io::parallel_for(n, 0, [&](size_t i) {
            auto chunk = static_cast<duckdb_data_chunk>(chunks[first + i]);
            if (st.direct_column) {
                convert_assembled(st, chunk, first + i, &st.ahead[i]);
            } else {
                throw_if_error(duckdb_data_chunk_to_arrow(st.options, chunk, &st.ahead[i]));
            }
        });
    } catch (...) {
        st.release_ahead();  // the group's batches that did convert
        throw;
    }
    st.next_chunk += n;
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
