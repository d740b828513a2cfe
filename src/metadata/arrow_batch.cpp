#include "metadata/arrow_batch.hpp"

#include <bit>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>

#include "metadata/duckdb_cells.hpp"

namespace taco::metadata {
namespace {

using Kind = ArrowColumns::Kind;

// How a column of DuckDB type `type` whose Arrow format is `format` is made. Shared where DuckDB
// stores the values exactly as Arrow does (little-endian, the same width and unit); the types
// are those a ResultTable holds (fetch casts the other integer and timestamp types to these).
Kind kind_of(duckdb_type type, std::string_view format) {
    const auto shared_if = [](bool same) { return same ? Kind::Shared : Kind::ByDuckDB; };
    switch (type) {
        case DUCKDB_TYPE_INTEGER:
            return shared_if(format == "i");
        case DUCKDB_TYPE_BIGINT:
            return shared_if(format == "l");
        case DUCKDB_TYPE_FLOAT:
            return shared_if(format == "f");
        case DUCKDB_TYPE_DOUBLE:
            return shared_if(format == "g");
        // int32 days since 1970-01-01
        case DUCKDB_TYPE_DATE:
            return shared_if(format == "tdD");
        // int64 microseconds; a time zone's name follows the colon
        case DUCKDB_TYPE_TIMESTAMP:
        case DUCKDB_TYPE_TIMESTAMP_TZ:
            return shared_if(format.substr(0, 4) == "tsu:");
        case DUCKDB_TYPE_VARCHAR:
            return format == "u" ? Kind::Text : Kind::ByDuckDB;
        case DUCKDB_TYPE_BLOB:
            return format == "z" ? Kind::Text : Kind::ByDuckDB;
        default:
            return Kind::ByDuckDB;
    }
}

// Children are freed with their parent (the C data interface lets the parent own them).
void release_child(ArrowArray* a) {
    a->release = nullptr;
}

// A utf8 / binary column of a batch, made here (the computed column, or a copy of a VARCHAR /
// BLOB vector's bytes).
struct TextColumn {
    ArrowArray array{};
    std::vector<uint8_t> validity;  // the computed column's; a copied column shares DuckDB's
    std::vector<int32_t> offsets;
    std::string data;
    const void* buffers[3] = {nullptr, nullptr, nullptr};
};

// A fixed-width column whose buffers are DuckDB's vector: values and validity (DuckDB's mask is
// 64-bit words of bits, least significant first, 1 = valid: on a little-endian machine the same
// bytes as Arrow's validity bitmap).
struct SharedColumn {
    ArrowArray array{};
    const void* buffers[2] = {nullptr, nullptr};
};

// A DuckDB chunk owned here.
struct OwnedChunk {
    duckdb_data_chunk chunk = nullptr;
    ~OwnedChunk() {
        if (chunk) duckdb_destroy_data_chunk(&chunk);
    }
};

// A batch whose columns come from four places: DuckDB's conversion (`inner`), the computed
// column, the shared columns and the copied text columns.
struct AssembledBatch {
    ArrowArray inner{};  // DuckDB's struct array; releasing it releases its children
    TextColumn computed;
    std::vector<SharedColumn> shared;  // reserved up front: children point at their elements
    std::vector<TextColumn> texts;
    std::vector<ArrowArray*> children;
    const void* buffers[1] = {nullptr};
    std::shared_ptr<const ResultTable> table;  // the shared columns point into its chunks...
    OwnedChunk gathered;                       // ... or into the copy of its small chunks

    ~AssembledBatch() {
        if (inner.release) inner.release(&inner);
    }
};

void release_assembled(ArrowArray* a) {
    delete static_cast<AssembledBatch*>(a->private_data);
    a->release = nullptr;
}

duckdb_data_chunk chunk_at(const std::vector<void*>& chunks, size_t k) {
    return static_cast<duckdb_data_chunk>(chunks[k]);
}

// Points a text column's Arrow array at its validity (nullptr: no NULL), offsets and bytes.
void finish_text(const void* validity, size_t rows, int64_t nulls, TextColumn& c) {
    c.buffers[0] = validity;
    c.buffers[1] = c.offsets.data();
    c.buffers[2] = c.data.data();
    c.array.length = static_cast<int64_t>(rows);
    c.array.null_count = nulls;
    c.array.n_buffers = 3;
    c.array.buffers = c.buffers;
    c.array.release = release_child;
}

// The computed cells of chunks [first, last) as one utf8 column of `rows` rows.
void build_utf8(const ResultTable& table, size_t first, size_t last, size_t rows, TextColumn& c) {
    c.offsets.resize(rows + 1);
    c.offsets[0] = 0;
    std::string text;
    int64_t nulls = 0;
    size_t row = 0;
    for (size_t chunk = first; chunk < last; ++chunk) {
        const size_t n = duckdb_data_chunk_get_size(chunk_at(table.chunks_unfilled(), chunk));
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
    finish_text(c.validity.empty() ? nullptr : c.validity.data(), rows, nulls, c);
}

// NULLs among the first `rows` cells of a DuckDB validity mask (nullptr: none).
int64_t count_nulls(const uint64_t* validity, size_t rows) {
    if (!validity) return 0;
    int64_t nulls = 0;
    for (size_t w = 0; w < rows / 64; ++w) nulls += 64 - std::popcount(validity[w]);
    if (rows % 64) {
        const uint64_t tail = validity[rows / 64] | ~((uint64_t{1} << (rows % 64)) - 1);
        nulls += 64 - std::popcount(tail);
    }
    return nulls;
}

void share_column(duckdb_vector v, size_t rows, SharedColumn& c) {
    const uint64_t* validity = duckdb_vector_get_validity(v);
    const int64_t nulls = count_nulls(validity, rows);
    c.buffers[0] = nulls ? validity : nullptr;
    c.buffers[1] = duckdb_vector_get_data(v);
    c.array.length = static_cast<int64_t>(rows);
    c.array.null_count = nulls;
    c.array.n_buffers = 2;
    c.array.buffers = c.buffers;
    c.array.release = release_child;
}

// A VARCHAR / BLOB vector's bytes as utf8 / binary: lengths summed first, then one copy each.
void copy_text(duckdb_vector v, size_t rows, TextColumn& c) {
    const void* cells = duckdb_vector_get_data(v);
    const uint64_t* validity = duckdb_vector_get_validity(v);
    size_t total = 0;
    for (size_t i = 0; i < rows; ++i) {
        if (is_valid(validity, i)) {
            total += static_cast<const duckdb_string_t*>(cells)[i].value.inlined.length;
        }
    }
    if (total > static_cast<size_t>(INT32_MAX)) {
        throw std::runtime_error(
            "a text column holds " + std::to_string(total) + " bytes in " + std::to_string(rows) +
            " rows, more than Arrow's utf8/binary (32-bit offsets) can hold in one batch");
    }
    c.data.resize(total);
    c.offsets.resize(rows + 1);
    c.offsets[0] = 0;
    size_t at = 0;
    for (size_t i = 0; i < rows; ++i) {
        if (is_valid(validity, i)) {
            const std::string_view s = string_of(cells, i);
            std::memcpy(c.data.data() + at, s.data(), s.size());
            at += s.size();
        }
        c.offsets[i + 1] = static_cast<int32_t>(at);
    }
    const int64_t nulls = count_nulls(validity, rows);
    finish_text(nulls ? validity : nullptr, rows, nulls, c);
}

// Chunks [first, last) (at most one vector of rows together) copied into one chunk: every
// column but `skip` (SIZE_MAX: none), with values, validity and strings (into the new chunk's
// own string heap).
void gather(const std::vector<void*>& chunks, size_t first, size_t last, size_t skip,
            OwnedChunk& out) {
    const size_t ncols = duckdb_data_chunk_get_column_count(chunk_at(chunks, first));
    std::vector<size_t> columns;
    std::vector<duckdb_logical_type> types;
    for (size_t j = 0; j < ncols; ++j) {
        if (j == skip) continue;
        columns.push_back(j);
        types.push_back(duckdb_vector_get_column_type(
            duckdb_data_chunk_get_vector(chunk_at(chunks, first), j)));
    }
    out.chunk = duckdb_create_data_chunk(types.data(), types.size());
    for (auto& t : types) duckdb_destroy_logical_type(&t);
    const size_t capacity = duckdb_vector_size();
    duckdb_selection_vector identity = duckdb_create_selection_vector(capacity);
    sel_t* index = duckdb_selection_vector_get_data_ptr(identity);
    for (size_t i = 0; i < capacity; ++i) index[i] = static_cast<sel_t>(i);
    size_t rows = 0;
    for (size_t c = first; c < last; ++c) {
        const size_t n = duckdb_data_chunk_get_size(chunk_at(chunks, c));
        for (size_t k = 0; k < columns.size(); ++k) {
            duckdb_vector_copy_sel(duckdb_data_chunk_get_vector(chunk_at(chunks, c), columns[k]),
                                   duckdb_data_chunk_get_vector(out.chunk, k), identity, n, 0,
                                   rows);
        }
        rows += n;
    }
    duckdb_destroy_selection_vector(identity);
    duckdb_data_chunk_set_size(out.chunk, rows);
}

// A new chunk whose vectors reference `columns` of `from` (no copy).
void reference_columns(duckdb_data_chunk from, const std::vector<size_t>& columns,
                       OwnedChunk& out) {
    std::vector<duckdb_logical_type> types;
    for (size_t j : columns) {
        types.push_back(duckdb_vector_get_column_type(duckdb_data_chunk_get_vector(from, j)));
    }
    out.chunk = duckdb_create_data_chunk(types.data(), types.size());
    for (auto& t : types) duckdb_destroy_logical_type(&t);
    for (size_t k = 0; k < columns.size(); ++k) {
        duckdb_vector_reference_vector(duckdb_data_chunk_get_vector(out.chunk, k),
                                       duckdb_data_chunk_get_vector(from, columns[k]));
    }
    duckdb_data_chunk_set_size(out.chunk, duckdb_data_chunk_get_size(from));
}

}  // namespace

void throw_if_arrow_error(duckdb_error_data err) {
    if (!err) return;
    if (!duckdb_error_data_has_error(err)) {
        duckdb_destroy_error_data(&err);
        return;
    }
    std::string message = duckdb_error_data_message(err);
    duckdb_destroy_error_data(&err);
    throw std::runtime_error(message);
}

std::optional<size_t> ArrowColumns::computed() const {
    for (size_t j = 0; j < kind.size(); ++j) {
        if (kind[j] == Kind::Computed) return j;
    }
    return std::nullopt;
}

ArrowColumns arrow_columns(const ResultTable& table, const ArrowSchema& schema) {
    ArrowColumns how;
    how.kind.assign(table.columns(), Kind::ByDuckDB);
    // Only plain utf8 (32-bit offsets) is built here; other string layouts DuckDB may be set
    // to produce (large, view) go through DuckDB with the column filled first.
    const auto computed = table.computed_column();
    if (computed && std::strcmp(schema.children[*computed]->format, "u") == 0) {
        how.kind[*computed] = Kind::Computed;
    }
    const auto& chunks = export_chunks(table, how);
    if constexpr (std::endian::native != std::endian::little) return how;
    if (chunks.empty()) return how;
    // By the type the chunks hold (a table's chunks all have the same types) and the Arrow
    // format DuckDB's own schema gives it.
    for (size_t j = 0; j < table.columns(); ++j) {
        if (how.kind[j] == Kind::Computed) continue;
        duckdb_logical_type t =
            duckdb_vector_get_column_type(duckdb_data_chunk_get_vector(chunk_at(chunks, 0), j));
        how.kind[j] = kind_of(duckdb_get_type_id(t), schema.children[j]->format);
        duckdb_destroy_logical_type(&t);
    }
    return how;
}

const std::vector<void*>& export_chunks(const ResultTable& table, const ArrowColumns& how) {
    return how.computed() ? table.chunks_unfilled() : table.raw_chunks();
}

void make_arrow_batch(const std::shared_ptr<const ResultTable>& table, duckdb_arrow_options options,
                      const ArrowColumns& how, size_t first, size_t last, ArrowArray* out) {
    const auto& chunks = export_chunks(*table, how);
    const std::optional<size_t> computed = how.computed();
    const size_t skip = computed.value_or(SIZE_MAX);
    auto batch = std::make_unique<AssembledBatch>();
    batch->table = table;
    // The rows: the table's own chunk, or its small chunks copied into one (every column but
    // the computed one); `at[j]` is table column j's column there.
    const size_t ncols = table->columns();
    std::vector<size_t> at(ncols);
    duckdb_data_chunk rows_chunk;
    if (last - first == 1) {
        rows_chunk = chunk_at(chunks, first);
        for (size_t j = 0; j < ncols; ++j) at[j] = j;
    } else {
        gather(chunks, first, last, skip, batch->gathered);
        rows_chunk = batch->gathered.chunk;
        for (size_t j = 0, k = 0; j < ncols; ++j) at[j] = j == skip ? SIZE_MAX : k++;
    }
    const size_t rows = duckdb_data_chunk_get_size(rows_chunk);
    std::vector<size_t> converted;  // by DuckDB
    for (size_t j = 0; j < ncols; ++j) {
        if (how.kind[j] == Kind::ByDuckDB) converted.push_back(at[j]);
    }
    if (!converted.empty()) {
        OwnedChunk others;
        reference_columns(rows_chunk, converted, others);
        throw_if_arrow_error(duckdb_data_chunk_to_arrow(options, others.chunk, &batch->inner));
    }
    if (computed) build_utf8(*table, first, last, rows, batch->computed);
    batch->shared.reserve(ncols);
    batch->texts.reserve(ncols);
    for (size_t j = 0, k = 0; j < ncols; ++j) {
        switch (how.kind[j]) {
            case Kind::Computed:
                batch->children.push_back(&batch->computed.array);
                break;
            case Kind::Shared:
                share_column(duckdb_data_chunk_get_vector(rows_chunk, at[j]), rows,
                             batch->shared.emplace_back());
                batch->children.push_back(&batch->shared.back().array);
                break;
            case Kind::Text:
                copy_text(duckdb_data_chunk_get_vector(rows_chunk, at[j]), rows,
                          batch->texts.emplace_back());
                batch->children.push_back(&batch->texts.back().array);
                break;
            case Kind::ByDuckDB:
                batch->children.push_back(batch->inner.children[k++]);
                break;
        }
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

}  // namespace taco::metadata
