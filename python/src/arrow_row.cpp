#include "arrow_row.hpp"

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "metadata/arrow_c.hpp"
#include "model/utf8.hpp"

namespace taco::py {
namespace {

// The column kinds read here, by Arrow C format string.
enum class Kind {
    Bool,
    Int8,
    Int16,
    Int32,
    Int64,
    Float32,
    Float64,
    Utf8,
    LargeUtf8,
    Binary,
    LargeBinary,
    Date32,
    Timestamp  // seconds, milliseconds or microseconds (timestamp_unit); nanoseconds are declined
};

std::optional<Kind> kind_of(const ArrowSchema& s) {
    if (s.dictionary != nullptr) return std::nullopt;
    const std::string_view f = s.format;
    if (f == "b") return Kind::Bool;
    if (f == "c") return Kind::Int8;
    if (f == "s") return Kind::Int16;
    if (f == "i") return Kind::Int32;
    if (f == "l") return Kind::Int64;
    if (f == "f") return Kind::Float32;
    if (f == "g") return Kind::Float64;
    if (f == "u") return Kind::Utf8;
    if (f == "U") return Kind::LargeUtf8;
    if (f == "z") return Kind::Binary;
    if (f == "Z") return Kind::LargeBinary;
    if (f == "tdD") return Kind::Date32;
    if (f.starts_with("tss:") || f.starts_with("tsm:") || f.starts_with("tsu:"))
        return Kind::Timestamp;
    return std::nullopt;
}

// Microseconds per unit of a timestamp column ("tsm:Europe/Madrid" -> 1000).
int64_t micros_per_unit(std::string_view format) {
    return format[2] == 's' ? 1000000 : format[2] == 'm' ? 1000 : 1;
}

// A timestamp column with a zone holds instants: Parquet stores any zoned Arrow timestamp as
// TIMESTAMP(isAdjustedToUTC=true), so it is written as timestamp_tz whatever the zone (the zone's
// name itself is display information Parquet does not keep). Without a zone it is wall time.
bool zoned(std::string_view format) {
    return format.size() > 4;
}

// The type a null of this column keeps: what bind_extensions' type_from_arrow_name finds for
// pyarrow's spelling of it (int8/int16 stay untyped).
DataType null_type(Kind k, std::string_view format) {
    switch (k) {
        case Kind::Bool:
            return DataType::boolean();
        case Kind::Int32:
            return DataType::int32();
        case Kind::Int64:
            return DataType::int64();
        case Kind::Float32:
            return DataType::float32();
        case Kind::Float64:
            return DataType::float64();
        case Kind::Utf8:
        case Kind::LargeUtf8:
            return DataType::string();
        case Kind::Binary:
        case Kind::LargeBinary:
            return DataType::binary();
        case Kind::Date32:
            return DataType::date();
        case Kind::Timestamp:
            return zoned(format) ? DataType::timestamp_tz() : DataType::timestamp();
        case Kind::Int8:
        case Kind::Int16:
            return DataType::null();
    }
    return DataType::null();
}

bool bit(const void* bitmap, int64_t i) {
    return (static_cast<const uint8_t*>(bitmap)[i >> 3] >> (i & 7)) & 1;
}

template <typename T>
T at(const ArrowArray& a, int buffer, int64_t i) {
    T v;
    std::memcpy(&v, static_cast<const uint8_t*>(a.buffers[buffer]) + i * sizeof(T), sizeof(T));
    return v;
}

template <typename Offset>
std::optional<std::string_view> bytes_at(const ArrowArray& a, int64_t i) {
    const Offset begin = at<Offset>(a, 1, i), end = at<Offset>(a, 1, i + 1);
    if (begin < 0 || end < begin) return std::nullopt;  // not what pyarrow writes: its path says
    return std::string_view{static_cast<const char*>(a.buffers[2]) + begin,
                            static_cast<size_t>(end - begin)};
}

// Cell `i` (buffer index, offsets applied) of column `a`; nullopt for invalid UTF-8 or a column
// without the buffers its type has (then the Python path, through pyarrow, reports it).
std::optional<Value> cell(Kind k, std::string_view format, const ArrowArray& a, int64_t i) {
    const bool variable =
        k == Kind::Utf8 || k == Kind::LargeUtf8 || k == Kind::Binary || k == Kind::LargeBinary;
    if (a.n_buffers < (variable ? 3 : 2) || a.length < 1) return std::nullopt;
    if (a.null_count != 0 && a.buffers[0] != nullptr && !bit(a.buffers[0], i))
        return Value::null(null_type(k, format));
    if (a.buffers[1] == nullptr || (variable && a.buffers[2] == nullptr)) return std::nullopt;
    switch (k) {
        case Kind::Bool:
            return Value(bit(a.buffers[1], i));
        case Kind::Int8:
            return Value::int32(at<int8_t>(a, 1, i));
        case Kind::Int16:
            return Value::int32(at<int16_t>(a, 1, i));
        case Kind::Int32:
            return Value::int32(at<int32_t>(a, 1, i));
        case Kind::Int64:
            return Value(static_cast<long long>(at<int64_t>(a, 1, i)));
        case Kind::Float32:
            return Value(at<float>(a, 1, i));
        case Kind::Float64:
            return Value(at<double>(a, 1, i));
        case Kind::Utf8:
        case Kind::LargeUtf8: {
            const auto text = k == Kind::Utf8 ? bytes_at<int32_t>(a, i) : bytes_at<int64_t>(a, i);
            if (!text || !model::is_valid_utf8(*text)) return std::nullopt;
            return Value(*text);
        }
        case Kind::Binary:
        case Kind::LargeBinary: {
            const auto bytes =
                k == Kind::Binary ? bytes_at<int32_t>(a, i) : bytes_at<int64_t>(a, i);
            if (!bytes) return std::nullopt;
            return Value::binary(std::string(*bytes));
        }
        case Kind::Date32:
            return Value::date(at<int32_t>(a, 1, i));
        case Kind::Timestamp: {
            // Microseconds, as every TACO time column; a value beyond int64 microseconds is left
            // to the Python path, which reports it.
            int64_t micros = 0;
            if (__builtin_mul_overflow(at<int64_t>(a, 1, i), micros_per_unit(format), &micros))
                return std::nullopt;
            return zoned(format) ? Value::timestamp_tz(micros) : Value::timestamp(micros);
        }
    }
    return std::nullopt;
}

struct SchemaGuard {
    ArrowSchema s{};
    ~SchemaGuard() {
        if (s.release) s.release(&s);
    }
};

struct ArrayGuard {
    ArrowArray a{};
    ~ArrayGuard() {
        if (a.release) a.release(&a);
    }
};

// The kind of each column of a struct schema; nullopt when one is left to the Python path.
std::optional<std::vector<Kind>> column_kinds(const ArrowSchema& schema) {
    if (std::string_view(schema.format) != "+s") return std::nullopt;
    std::vector<Kind> kinds;
    kinds.reserve(static_cast<size_t>(schema.n_children));
    for (int64_t j = 0; j < schema.n_children; ++j) {
        const auto k = kind_of(*schema.children[j]);
        if (!k) return std::nullopt;
        kinds.push_back(*k);
    }
    return kinds;
}

// Row `row` of `batch` (a struct array of `schema`'s columns) as fields.
std::optional<std::vector<Field>> row_fields(const ArrowSchema& schema,
                                             const std::vector<Kind>& kinds,
                                             const ArrowArray& batch, int64_t row) {
    if (batch.n_children != schema.n_children) return std::nullopt;
    std::vector<Field> fields;
    fields.reserve(kinds.size());
    for (size_t j = 0; j < kinds.size(); ++j) {
        const ArrowArray& column = *batch.children[j];
        // A child's positions are relative to its parent's offset, its buffers to its own.
        auto value =
            cell(kinds[j], schema.children[j]->format, column, column.offset + batch.offset + row);
        if (!value) return std::nullopt;
        fields.push_back({schema.children[j]->name, std::move(*value)});
    }
    return fields;
}

struct StreamGuard {
    ArrowArrayStream* s;
    ~StreamGuard() {
        if (s->release) s->release(s);
    }
};

}  // namespace

std::optional<std::vector<std::vector<Field>>> arrow_rows_fields(ArrowArrayStream* stream,
                                                                 size_t rows) {
    StreamGuard stream_guard{stream};
    SchemaGuard schema;
    if (stream->get_schema(stream, &schema.s) != 0) return std::nullopt;
    const auto kinds = column_kinds(schema.s);
    if (!kinds) return std::nullopt;
    std::vector<std::vector<Field>> out;
    out.reserve(rows);
    // Rows may be spread over any number of batches, empty ones included.
    for (;;) {
        ArrayGuard batch;
        if (stream->get_next(stream, &batch.a) != 0) return std::nullopt;
        if (batch.a.release == nullptr) break;  // end of stream
        if (batch.a.length < 0 || out.size() + static_cast<size_t>(batch.a.length) > rows)
            return std::nullopt;
        for (int64_t i = 0; i < batch.a.length; ++i) {
            auto fields = row_fields(schema.s, *kinds, batch.a, i);
            if (!fields) return std::nullopt;
            out.push_back(std::move(*fields));
        }
    }
    if (out.size() != rows) return std::nullopt;
    return out;
}

std::optional<std::vector<Field>> arrow_row_fields(ArrowArrayStream* stream) {
    auto rows = arrow_rows_fields(stream, 1);
    if (!rows) return std::nullopt;
    return std::move(rows->front());
}

}  // namespace taco::py
