#include "metadata/result_arrow.hpp"

#include <duckdb.h>

#include <string>
#include <vector>

#include "metadata/duckdb_types.hpp"

namespace taco::metadata {
namespace {

struct StreamState {
    std::shared_ptr<const ResultTable> table;
    duckdb_arrow_options options = nullptr;
    size_t next_chunk = 0;
    std::string last_error;

    ~StreamState() {
        if (options) duckdb_destroy_arrow_options(&options);
    }
};

StreamState* state(ArrowArrayStream* s) {
    return static_cast<StreamState*>(s->private_data);
}

int fail(StreamState* st, duckdb_error_data err) {
    st->last_error = duckdb_error_data_message(err);
    duckdb_destroy_error_data(&err);
    return 5;  // EIO
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
    if (err && duckdb_error_data_has_error(err)) return fail(st, err);
    if (err) duckdb_destroy_error_data(&err);
    return 0;
}

int get_next(ArrowArrayStream* s, ArrowArray* out) {
    StreamState* st = state(s);
    const auto& chunks = st->table->raw_chunks();
    if (st->next_chunk >= chunks.size()) {
        out->release = nullptr;  // end of stream
        return 0;
    }
    auto chunk = static_cast<duckdb_data_chunk>(chunks[st->next_chunk++]);
    duckdb_error_data err = duckdb_data_chunk_to_arrow(st->options, chunk, out);
    if (err && duckdb_error_data_has_error(err)) return fail(st, err);
    if (err) duckdb_destroy_error_data(&err);
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
