#include "arrow_row.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <utility>

#include "metadata/arrow_c.hpp"
#include "model/utf8.hpp"
#include "taco/errors.hpp"

namespace taco::py {
namespace {

// The column kinds read here, by Arrow C format string.
enum class Kind {
    Bool,
    Int8,
    Int16,
    Int32,
    Int64,
    UInt8,
    UInt16,
    UInt32,
    UInt64,
    Float16,  // read as a double, as the Python path's float does
    Float32,
    Float64,
    Utf8,
    LargeUtf8,
    Binary,
    LargeBinary,
    Utf8View,  // views: 16-byte entries, inline up to 12 bytes, else into a data buffer
    BinaryView,
    Date32,
    Date64,       // milliseconds, read as the day they fall on
    Timestamp,    // seconds, milliseconds or microseconds
    TimestampNs,  // nanoseconds, floored to microseconds
    Null,         // pyarrow's null type: untyped nulls, as a None is
    Dictionary,   // indices into the dictionary (children[0] reads its values)
    Decimal128,
    List,
    LargeList,
    FixedList,
    Struct,
    Map
};

// One column, or one part of a nested column: how its buffers are read and the type its values
// get. Built once per schema; a type this reader does not take makes the whole schema nullopt.
struct Node {
    Kind kind;
    DataType type;
    int64_t micros_per_unit = 1;  // Timestamp
    int scale = 0;                // Decimal128
    int32_t fixed_size = 0;       // FixedList
    char index_format = 0;        // Dictionary: the indices' Arrow format (c, s, i, l, C, S, I, L)
    std::vector<Node>
        children;  // List, LargeList, FixedList: 1; Struct: its fields; Map: key, value
};

std::optional<Node> node_of(const ArrowSchema& s, int depth);

// "d:P,S" or "d:P,S,128" -> (P, S); nullopt for other widths or anything malformed.
std::optional<std::pair<int, int>> decimal128_spec(std::string_view f) {
    f.remove_prefix(2);
    int precision = 0, scale = 0;
    auto [p, ec] = std::from_chars(f.data(), f.data() + f.size(), precision);
    if (ec != std::errc() || p == f.data() + f.size() || *p != ',') return std::nullopt;
    auto [q, ec2] = std::from_chars(p + 1, f.data() + f.size(), scale);
    if (ec2 != std::errc()) return std::nullopt;
    const std::string_view rest(q, static_cast<size_t>(f.data() + f.size() - q));
    if (!rest.empty() && rest != ",128") return std::nullopt;
    return std::pair{precision, scale};
}

std::optional<Node> scalar_node(std::string_view f) {
    if (f == "b") return Node{Kind::Bool, DataType::boolean()};
    // int8/16 become int32, as on the Python path; unsigned integers int64 (a uint64 beyond it is
    // declined per value, and the Python path names it).
    if (f == "c") return Node{Kind::Int8, DataType::int32()};
    if (f == "s") return Node{Kind::Int16, DataType::int32()};
    if (f == "i") return Node{Kind::Int32, DataType::int32()};
    if (f == "l") return Node{Kind::Int64, DataType::int64()};
    if (f == "C") return Node{Kind::UInt8, DataType::int64()};
    if (f == "S") return Node{Kind::UInt16, DataType::int64()};
    if (f == "I") return Node{Kind::UInt32, DataType::int64()};
    if (f == "L") return Node{Kind::UInt64, DataType::int64()};
    if (f == "e") return Node{Kind::Float16, DataType::float64()};
    if (f == "f") return Node{Kind::Float32, DataType::float32()};
    if (f == "g") return Node{Kind::Float64, DataType::float64()};
    if (f == "u") return Node{Kind::Utf8, DataType::string()};
    if (f == "U") return Node{Kind::LargeUtf8, DataType::string()};
    if (f == "z") return Node{Kind::Binary, DataType::binary()};
    if (f == "Z") return Node{Kind::LargeBinary, DataType::binary()};
    if (f == "vu") return Node{Kind::Utf8View, DataType::string()};
    if (f == "vz") return Node{Kind::BinaryView, DataType::binary()};
    if (f == "n") return Node{Kind::Null, DataType::null()};
    if (f == "tdD") return Node{Kind::Date32, DataType::date()};
    if (f == "tdm") return Node{Kind::Date64, DataType::date()};
    if (f.starts_with("ts") && f.size() >= 4 && f[3] == ':' && f.find_first_of("smun", 2) == 2) {
        // A zone, any zone, makes the column one of instants: Parquet stores any zoned Arrow
        // timestamp as TIMESTAMP(isAdjustedToUTC=true); the zone's name is display information
        // it does not keep. Every unit is kept in microseconds, TACO's (and the model's) unit
        // (pandas' nanoseconds floored, as pyarrow's datetimes and pandas' .microsecond do).
        const DataType t = f.size() > 4 ? DataType::timestamp_tz() : DataType::timestamp();
        if (f[2] == 'n') return Node{Kind::TimestampNs, t};
        Node n{Kind::Timestamp, t};
        n.micros_per_unit = f[2] == 's' ? 1000000 : f[2] == 'm' ? 1000 : 1;
        return n;
    }
    if (f.starts_with("d:")) {
        const auto spec = decimal128_spec(f);
        if (!spec) return std::nullopt;
        Node n{Kind::Decimal128, DataType::decimal(spec->first, spec->second)};
        n.scale = spec->second;
        return n;
    }
    return std::nullopt;
}

std::optional<Node> nested_node(const ArrowSchema& s, std::string_view f, int depth) {
    std::vector<Node> children;
    for (int64_t i = 0; i < s.n_children; ++i) {
        auto child = node_of(*s.children[i], depth + 1);
        if (!child) return std::nullopt;
        children.push_back(std::move(*child));
    }
    if ((f == "+l" || f == "+L") && children.size() == 1) {
        Node n{f == "+l" ? Kind::List : Kind::LargeList, DataType::list(children[0].type)};
        n.children = std::move(children);
        return n;
    }
    if (f.starts_with("+w:") && children.size() == 1) {
        int32_t size = 0;
        auto [p, ec] = std::from_chars(f.data() + 3, f.data() + f.size(), size);
        if (ec != std::errc() || p != f.data() + f.size() || size < 1) return std::nullopt;
        Node n{Kind::FixedList, DataType::fixed_list(children[0].type, size)};
        n.fixed_size = size;
        n.children = std::move(children);
        return n;
    }
    if (f == "+s") {
        std::vector<std::pair<std::string, DataType>> fields;
        for (int64_t i = 0; i < s.n_children; ++i)
            fields.emplace_back(s.children[i]->name ? s.children[i]->name : "",
                                children[static_cast<size_t>(i)].type);
        Node n{Kind::Struct, DataType::structure(fields)};
        n.children = std::move(children);
        return n;
    }
    // A map is a list of {key, value} structs: its two fields are read as the map's children.
    if (f == "+m" && children.size() == 1 && children[0].kind == Kind::Struct &&
        children[0].children.size() == 2) {
        std::vector<Node> kv = std::move(children[0].children);
        Node n{Kind::Map, DataType::map(kv[0].type, kv[1].type)};
        n.children = std::move(kv);
        return n;
    }
    return std::nullopt;
}

// A dictionary-encoded column (pandas' categoricals) reads as its values' type.
std::optional<Node> dictionary_node(const ArrowSchema& s, int depth) {
    const std::string_view f = s.format;
    if (f.size() != 1 || std::string_view("csilCSIL").find(f[0]) == std::string_view::npos)
        return std::nullopt;
    auto values = node_of(*s.dictionary, depth + 1);
    if (!values) return std::nullopt;
    Node n{Kind::Dictionary, values->type};
    n.index_format = f[0];
    n.children.push_back(std::move(*values));
    return n;
}

std::optional<Node> node_of(const ArrowSchema& s, int depth) {
    if (s.format == nullptr || depth > kMaxNestingDepth) return std::nullopt;
    if (s.dictionary != nullptr) return dictionary_node(s, depth);
    const std::string_view f = s.format;
    try {
        if (f.starts_with("+")) return nested_node(s, f, depth);
        return scalar_node(f);
    } catch (const SchemaError&) {
        return std::nullopt;  // a type the model refuses (decimal precision, struct names): the
                              // Python path reports it naming the sample and field
    }
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

// The bytes of view `i` of a string or binary view array: buffers are validity, the views, the
// data buffers, then the data buffers' sizes (int64 each). nullopt for a view outside them.
std::optional<std::string_view> view_at(const ArrowArray& a, int64_t i) {
    const uint8_t* view = static_cast<const uint8_t*>(a.buffers[1]) + i * 16;
    int32_t size = 0;
    std::memcpy(&size, view, 4);
    if (size < 0) return std::nullopt;
    if (size <= 12)
        return std::string_view{reinterpret_cast<const char*>(view) + 4, static_cast<size_t>(size)};
    int32_t index = 0, offset = 0;
    std::memcpy(&index, view + 8, 4);
    std::memcpy(&offset, view + 12, 4);
    const int64_t data_buffers = a.n_buffers - 3;
    if (index < 0 || index >= data_buffers || offset < 0) return std::nullopt;
    const auto* data = static_cast<const char*>(a.buffers[2 + index]);
    const auto* sizes = static_cast<const int64_t*>(a.buffers[a.n_buffers - 1]);
    if (data == nullptr || sizes == nullptr || static_cast<int64_t>(offset) + size > sizes[index])
        return std::nullopt;
    return std::string_view{data + offset, static_cast<size_t>(size)};
}

// Buffers each kind has besides validity (children are arrays of their own).
int buffers_needed(Kind k) {
    switch (k) {
        case Kind::Utf8:
        case Kind::LargeUtf8:
        case Kind::Binary:
        case Kind::LargeBinary:
            return 3;
        case Kind::Null:
            return 0;
        case Kind::Struct:
        case Kind::FixedList:
            return 1;
        default:  // views too: their data buffers and sizes are checked by view_at
            return 2;
    }
}

// The decimal128 at `i` as text with `scale` fractional digits ("-12.50").
std::string decimal_text(const ArrowArray& a, int64_t i, int scale) {
    unsigned __int128 magnitude;
    __int128 v;
    std::memcpy(&v, static_cast<const uint8_t*>(a.buffers[1]) + i * 16, 16);
    const bool negative = v < 0;
    magnitude = negative ? static_cast<unsigned __int128>(0) - static_cast<unsigned __int128>(v)
                         : static_cast<unsigned __int128>(v);
    std::string digits;
    do {
        digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(magnitude % 10)));
        magnitude /= 10;
    } while (magnitude != 0);
    if (scale > 0) {
        if (digits.size() <= static_cast<size_t>(scale))
            digits.insert(0, static_cast<size_t>(scale) + 1 - digits.size(), '0');
        digits.insert(digits.size() - static_cast<size_t>(scale), ".");
    }
    return negative ? "-" + digits : digits;
}

std::optional<Value> cell(const Node& n, const ArrowArray& a, int64_t i);

// Items [begin, end) of child array `c`, logical positions (its own offset is added here): a
// list's offsets, or a struct parent's positions. Beyond its length is a malformed array.
std::optional<Value::List> items(const Node& child, const ArrowArray& c, int64_t begin,
                                 int64_t end) {
    if (begin < 0 || end < begin || end > c.length) return std::nullopt;
    Value::List out;
    out.reserve(static_cast<size_t>(end - begin));
    for (int64_t k = begin; k < end; ++k) {
        auto v = cell(child, c, c.offset + k);
        if (!v) return std::nullopt;
        out.push_back(std::move(*v));
    }
    return out;
}

// Cell at buffer position `i` (offsets applied) of array `a` read as `n`; nullopt for invalid
// UTF-8, a value beyond what the model holds, or an array without the buffers its type has
// (then the Python path, through pyarrow, reports it).
// The dictionary index at `i`, by its Arrow format.
int64_t dictionary_index(char format, const ArrowArray& a, int64_t i) {
    switch (format) {
        case 'c':
            return at<int8_t>(a, 1, i);
        case 's':
            return at<int16_t>(a, 1, i);
        case 'i':
            return at<int32_t>(a, 1, i);
        case 'C':
            return at<uint8_t>(a, 1, i);
        case 'S':
            return at<uint16_t>(a, 1, i);
        case 'I':
            return at<uint32_t>(a, 1, i);
        default:  // 'l', 'L' (an index beyond int64 is out of range either way)
            return at<int64_t>(a, 1, i);
    }
}

// An IEEE 754 half-precision value, exactly (every half is a double).
double half_to_double(uint16_t h) {
    const int exponent = (h >> 10) & 0x1f;
    const int mantissa = h & 0x3ff;
    const double sign = (h & 0x8000) ? -1.0 : 1.0;
    if (exponent == 0x1f)
        return mantissa ? std::numeric_limits<double>::quiet_NaN()
                        : sign * std::numeric_limits<double>::infinity();
    if (exponent == 0) return sign * std::ldexp(mantissa, -24);  // subnormal (or zero)
    return sign * std::ldexp(mantissa + 1024, exponent - 25);
}

// x / d rounded towards minus infinity.
int64_t floor_div(int64_t x, int64_t d) {
    return x / d - ((x % d != 0) && ((x < 0) != (d < 0)));
}

std::optional<Value> cell(const Node& n, const ArrowArray& a, int64_t i) {
    if (n.kind == Kind::Null) return Value();
    if (a.n_buffers < buffers_needed(n.kind)) return std::nullopt;
    if (a.null_count != 0 && a.buffers[0] != nullptr && !bit(a.buffers[0], i))
        return Value::null(n.type);
    for (int b = 1; b < buffers_needed(n.kind); ++b)
        if (a.buffers[b] == nullptr) return std::nullopt;
    switch (n.kind) {
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
        case Kind::UInt8:
            return Value(static_cast<long long>(at<uint8_t>(a, 1, i)));
        case Kind::UInt16:
            return Value(static_cast<long long>(at<uint16_t>(a, 1, i)));
        case Kind::UInt32:
            return Value(static_cast<long long>(at<uint32_t>(a, 1, i)));
        case Kind::UInt64: {
            const uint64_t v = at<uint64_t>(a, 1, i);
            if (v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return std::nullopt;
            return Value(static_cast<long long>(v));
        }
        case Kind::Float16:
            return Value(half_to_double(at<uint16_t>(a, 1, i)));
        case Kind::Float32:
            return Value(at<float>(a, 1, i));
        case Kind::Float64:
            return Value(at<double>(a, 1, i));
        case Kind::Utf8:
        case Kind::LargeUtf8: {
            const auto text =
                n.kind == Kind::Utf8 ? bytes_at<int32_t>(a, i) : bytes_at<int64_t>(a, i);
            if (!text || !model::is_valid_utf8(*text)) return std::nullopt;
            return Value(*text);
        }
        case Kind::Binary:
        case Kind::LargeBinary: {
            const auto bytes =
                n.kind == Kind::Binary ? bytes_at<int32_t>(a, i) : bytes_at<int64_t>(a, i);
            if (!bytes) return std::nullopt;
            return Value::binary(std::string(*bytes));
        }
        case Kind::Utf8View:
        case Kind::BinaryView: {
            if (a.n_buffers < 3) return std::nullopt;
            const auto bytes = view_at(a, i);
            if (!bytes) return std::nullopt;
            if (n.kind == Kind::BinaryView) return Value::binary(std::string(*bytes));
            if (!model::is_valid_utf8(*bytes)) return std::nullopt;
            return Value(*bytes);
        }
        case Kind::Date32:
            return Value::date(at<int32_t>(a, 1, i));
        case Kind::Date64: {
            const int64_t days = floor_div(at<int64_t>(a, 1, i), 86'400'000);
            if (days < std::numeric_limits<int32_t>::min() ||
                days > std::numeric_limits<int32_t>::max())
                return std::nullopt;
            return Value::date(static_cast<int32_t>(days));
        }
        case Kind::TimestampNs: {
            const int64_t micros = floor_div(at<int64_t>(a, 1, i), 1000);
            return n.type == DataType::timestamp_tz() ? Value::timestamp_tz(micros)
                                                      : Value::timestamp(micros);
        }
        case Kind::Null:
            return Value();
        case Kind::Dictionary: {
            if (a.dictionary == nullptr) return std::nullopt;
            const ArrowArray& values = *a.dictionary;
            const int64_t k = dictionary_index(n.index_format, a, i);
            if (k < 0 || k >= values.length) return std::nullopt;
            return cell(n.children[0], values, values.offset + k);
        }
        case Kind::Timestamp: {
            // A value beyond int64 microseconds is left to the Python path, which reports it.
            int64_t micros = 0;
            if (__builtin_mul_overflow(at<int64_t>(a, 1, i), n.micros_per_unit, &micros))
                return std::nullopt;
            return n.type == DataType::timestamp_tz() ? Value::timestamp_tz(micros)
                                                      : Value::timestamp(micros);
        }
        case Kind::Decimal128:
            try {
                return Value::decimal(n.type, decimal_text(a, i, n.scale));
            } catch (const SchemaError&) {
                return std::nullopt;  // more digits than the precision: not what pyarrow holds
            }
        case Kind::List:
        case Kind::LargeList: {
            if (a.n_children != 1) return std::nullopt;
            const bool large = n.kind == Kind::LargeList;
            const int64_t begin = large ? at<int64_t>(a, 1, i) : at<int32_t>(a, 1, i);
            const int64_t end = large ? at<int64_t>(a, 1, i + 1) : at<int32_t>(a, 1, i + 1);
            auto list = items(n.children[0], *a.children[0], begin, end);
            if (!list) return std::nullopt;
            return Value::list(n.children[0].type, std::move(*list));
        }
        case Kind::FixedList: {
            if (a.n_children != 1) return std::nullopt;
            auto list =
                items(n.children[0], *a.children[0], i * n.fixed_size, (i + 1) * n.fixed_size);
            if (!list) return std::nullopt;
            return Value::fixed_list(n.type, std::move(*list));
        }
        case Kind::Struct: {
            if (a.n_children != static_cast<int64_t>(n.children.size())) return std::nullopt;
            Value::List fields;
            for (size_t k = 0; k < n.children.size(); ++k) {
                const ArrowArray& c = *a.children[k];
                if (i >= c.length) return std::nullopt;  // i: the child's logical position
                auto v = cell(n.children[k], c, c.offset + i);
                if (!v) return std::nullopt;
                fields.push_back(std::move(*v));
            }
            return Value::structure(n.type, std::move(fields));
        }
        case Kind::Map: {
            if (a.n_children != 1 || a.children[0]->n_children != 2) return std::nullopt;
            const ArrowArray& entries = *a.children[0];
            const int64_t begin = at<int32_t>(a, 1, i), end = at<int32_t>(a, 1, i + 1);
            auto keys = items(n.children[0], *entries.children[0], entries.offset + begin,
                              entries.offset + end);
            auto values = items(n.children[1], *entries.children[1], entries.offset + begin,
                                entries.offset + end);
            if (!keys || !values) return std::nullopt;
            std::vector<std::pair<Value, Value>> pairs;
            for (size_t k = 0; k < keys->size(); ++k) {
                if ((*keys)[k].is_null()) return std::nullopt;
                pairs.emplace_back(std::move((*keys)[k]), std::move((*values)[k]));
            }
            return Value::map(n.type, std::move(pairs));
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

// How each column of a struct schema is read: nullopt for a column left to the Python path;
// nullopt for them all when the schema is not a table's (a struct).
std::optional<std::vector<std::optional<Node>>> column_nodes(const ArrowSchema& schema) {
    if (schema.format == nullptr || std::string_view(schema.format) != "+s") return std::nullopt;
    std::vector<std::optional<Node>> nodes;
    nodes.reserve(static_cast<size_t>(schema.n_children));
    for (int64_t j = 0; j < schema.n_children; ++j)
        nodes.push_back(node_of(*schema.children[j], 1));
    return nodes;
}

// Row `row` of `batch` (a struct array of `schema`'s columns), column by column: nullopt for a
// column without a node or whose value is declined. nullopt for the row when the batch does not
// have the schema's columns.
std::optional<std::vector<std::optional<Value>>> row_cells(
    const ArrowSchema& schema, const std::vector<std::optional<Node>>& nodes,
    const ArrowArray& batch, int64_t row) {
    if (batch.n_children != schema.n_children) return std::nullopt;
    std::vector<std::optional<Value>> cells;
    cells.reserve(nodes.size());
    for (size_t j = 0; j < nodes.size(); ++j) {
        const ArrowArray& column = *batch.children[j];
        // A child's positions are relative to its parent's offset, its buffers to its own.
        cells.push_back(nodes[j] ? cell(*nodes[j], column, column.offset + batch.offset + row)
                                 : std::nullopt);
    }
    return cells;
}

struct StreamGuard {
    ArrowArrayStream* s;
    ~StreamGuard() {
        if (s->release) s->release(s);
    }
};

// Every row of `stream` (consumed) as cells, exactly `rows` of them, with the column names;
// nullopt for a stream error, another row count or a schema that is not a table's, and, when
// `every_column`, as soon as the schema has a column left to the Python path.
std::optional<std::pair<std::vector<std::string>, std::vector<std::vector<std::optional<Value>>>>>
read_rows(ArrowArrayStream* stream, size_t rows, bool every_column) {
    StreamGuard stream_guard{stream};
    SchemaGuard schema;
    if (stream->get_schema(stream, &schema.s) != 0) return std::nullopt;
    const auto nodes = column_nodes(schema.s);
    if (!nodes) return std::nullopt;
    if (every_column)
        for (const auto& n : *nodes)
            if (!n) return std::nullopt;
    std::vector<std::string> names;
    for (int64_t j = 0; j < schema.s.n_children; ++j)
        names.emplace_back(schema.s.children[j]->name ? schema.s.children[j]->name : "");
    std::vector<std::vector<std::optional<Value>>> out;
    out.reserve(rows);
    // Rows may be spread over any number of batches, empty ones included.
    for (;;) {
        ArrayGuard batch;
        if (stream->get_next(stream, &batch.a) != 0) return std::nullopt;
        if (batch.a.release == nullptr) break;  // end of stream
        if (batch.a.length < 0 || out.size() + static_cast<size_t>(batch.a.length) > rows)
            return std::nullopt;
        for (int64_t i = 0; i < batch.a.length; ++i) {
            auto cells = row_cells(schema.s, *nodes, batch.a, i);
            if (!cells) return std::nullopt;
            out.push_back(std::move(*cells));
        }
    }
    if (out.size() != rows) return std::nullopt;
    return std::pair{std::move(names), std::move(out)};
}

}  // namespace

std::optional<std::vector<std::vector<Field>>> arrow_rows_fields(ArrowArrayStream* stream,
                                                                 size_t rows) {
    auto read = read_rows(stream, rows, true);
    if (!read) return std::nullopt;
    const auto& names = read->first;
    std::vector<std::vector<Field>> out;
    out.reserve(rows);
    for (auto& row : read->second) {
        std::vector<Field> fields;
        fields.reserve(row.size());
        for (size_t j = 0; j < row.size(); ++j) {
            if (!row[j]) return std::nullopt;  // a column (or value) left to the Python path
            fields.push_back({names[j], std::move(*row[j])});
        }
        out.push_back(std::move(fields));
    }
    return out;
}

std::optional<std::vector<Field>> arrow_row_fields(ArrowArrayStream* stream) {
    auto rows = arrow_rows_fields(stream, 1);
    if (!rows) return std::nullopt;
    return std::move(rows->front());
}

std::optional<std::vector<std::optional<Value>>> arrow_row_cells(ArrowArrayStream* stream) {
    auto read = read_rows(stream, 1, false);
    if (!read) return std::nullopt;
    return std::move(read->second.front());
}

}  // namespace taco::py
