// Typed metadata values: what a sample's extension fields hold and what the level tables store.
// The types are the Arrow types the reference writer produces (FORMAT.md §4.1, §4.6).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace taco {

enum class TypeId : uint8_t {
    Null,  // a value whose type is not known yet (a bare null)
    Bool,
    Int32,
    Int64,
    Float32,
    Float64,
    String,       // UTF-8 text
    Binary,       // raw bytes (WKB geometries, headers)
    Timestamp,    // microseconds since 1970-01-01T00:00:00 UTC, stored without time zone
    List,         // list of one element type, nested lists allowed
    Date,         // days since 1970-01-01 (Arrow date32, DuckDB DATE)
    TimestampTz,  // microseconds since 1970-01-01T00:00:00 UTC, an instant (timestamp[us, tz=UTC])
    Decimal,      // exact decimal of a given precision and scale; held as its canonical text
    Struct,       // named fields, each of its own type
    Map,          // key -> value entries; held as a list of {key, value} structs
    FixedList,    // list of exactly N elements of one type (Arrow fixed_size_list, DuckDB ARRAY)
};

/// How deeply types may nest (a list of lists of ... counts one level per list, struct, map).
/// Deeper types are refused with a SchemaError when written and when read: no real metadata
/// needs more, and unbounded depth makes every recursive consumer a stack-overflow risk.
inline constexpr int kMaxNestingDepth = 64;

namespace detail {
struct TypeNode;
}

/// A metadata column type. Lists carry their element type, to any depth. Types are interned:
/// a DataType is one pointer, and copying or comparing it costs nothing.
class DataType {
  public:
    DataType();  // the null type
    static DataType null() { return DataType(); }
    static DataType boolean() { return of(TypeId::Bool); }
    static DataType int32() { return of(TypeId::Int32); }
    static DataType int64() { return of(TypeId::Int64); }
    static DataType float32() { return of(TypeId::Float32); }
    static DataType float64() { return of(TypeId::Float64); }
    static DataType string() { return of(TypeId::String); }
    static DataType binary() { return of(TypeId::Binary); }
    static DataType timestamp() { return of(TypeId::Timestamp); }
    static DataType list(DataType element);
    static DataType date() { return of(TypeId::Date); }
    static DataType timestamp_tz() { return of(TypeId::TimestampTz); }
    /// DECIMAL(precision, scale): 1 <= precision <= 38, 0 <= scale <= precision (SchemaError
    /// otherwise).
    static DataType decimal(int precision, int scale);
    /// A struct with these fields, in order; names must be unique and non-empty (SchemaError).
    static DataType structure(const std::vector<std::pair<std::string, DataType>>& fields);
    static DataType map(DataType key, DataType value);
    /// A list of exactly `size` (>= 1) elements.
    static DataType fixed_list(DataType element, int size);

    TypeId id() const;
    bool is_null() const { return id() == TypeId::Null; }
    bool is_list() const { return id() == TypeId::List; }
    /// Element type of a list or fixed-size list (the null type for others).
    DataType element() const;
    /// Struct: its fields. Map: two fields, "key" and "value". Empty for other types.
    size_t field_count() const;
    const std::string& field_name(size_t i) const;
    DataType field_type(size_t i) const;
    /// The {key, value} struct a map's entries are (the null type for non-maps).
    DataType map_entry() const;
    /// FixedList: the element count. Decimal: the precision. 0 otherwise.
    int size() const;
    /// Decimal: the scale. 0 otherwise.
    int scale() const;
    /// Levels of nesting: 0 for scalars, 1 + the deepest child for lists, structs and maps.
    int depth() const;
    /// True when nothing in the type is still unknown (no Null at any depth).
    bool is_complete() const;

    /// The type as pyarrow prints it, e.g. "double", "timestamp[us]", "list<item: list<item:
    /// float>>", "struct<a: int64, b: string>", "map<string, int64>", "decimal128(10, 2)".
    std::string arrow_name() const;
    /// The DuckDB SQL type, e.g. "DOUBLE", "TIMESTAMP", "FLOAT[][]".
    std::string sql_name() const;

    /// Merges two types where one side may still be unknown (null, or a list of null).
    /// Returns false when they conflict; `out` is then unspecified.
    static bool unify(const DataType& a, const DataType& b, DataType& out);

    friend bool operator==(const DataType& a, const DataType& b) { return a.node_ == b.node_; }
    friend bool operator!=(const DataType& a, const DataType& b) { return a.node_ != b.node_; }

  private:
    static DataType of(TypeId id);
    explicit DataType(const detail::TypeNode* node) : node_(node) {}
    const detail::TypeNode* node_;
};

/// One typed value, possibly null. A null keeps a type when it has one (typed null).
/// 24 bytes: the interned type, a null flag and an inline scalar or a pointer to heap text/list
/// (a million samples with a handful of fields must fit comfortably in memory).
class Value {
  public:
    using List = std::vector<Value>;

    Value() : type_(), null_(true) { u_.i = 0; }  // untyped null
    Value(bool v) : type_(DataType::boolean()), null_(false) { u_.b = v; }
    Value(int v) : Value(static_cast<long long>(v)) {}
    Value(long v) : Value(static_cast<long long>(v)) {}
    Value(long long v) : type_(DataType::int64()), null_(false) { u_.i = v; }
    // Unsigned integers (a size_t, a count) are int64 values too; above INT64_MAX a SchemaError.
    Value(unsigned v) : Value(static_cast<long long>(v)) {}
    Value(unsigned long v) : Value(static_cast<unsigned long long>(v)) {}
    Value(unsigned long long v);
    Value(double v) : type_(DataType::float64()), null_(false) { u_.d = v; }
    Value(float v) : type_(DataType::float32()), null_(false) { u_.d = v; }
    Value(std::string v) : type_(DataType::string()), null_(false) {
        u_.s = new std::string(std::move(v));
    }
    Value(std::string_view v) : Value(std::string(v)) {}
    Value(const char* v) : Value(std::string(v)) {}

    Value(const Value& other);
    Value(Value&& other) noexcept;
    Value& operator=(const Value& other);
    Value& operator=(Value&& other) noexcept;
    ~Value() { release(); }

    static Value null(DataType type = DataType::null());
    static Value int32(int32_t v);
    static Value binary(std::string bytes);
    static Value timestamp(int64_t micros_since_epoch);
    static Value date(int32_t days_since_epoch);
    static Value timestamp_tz(int64_t micros_since_epoch);
    /// A decimal of `type` (a Decimal type) from its text ("-12.5", "3"); the text is kept in
    /// canonical form with exactly scale() fractional digits. SchemaError when it is not a number
    /// or does not fit the precision.
    static Value decimal(DataType type, std::string_view text);
    /// A struct value: one value per field of `type`, in order (SchemaError when they disagree).
    static Value structure(DataType type, List fields);
    /// A struct whose type is taken from its named values.
    static Value structure(std::vector<std::pair<std::string, Value>> fields);
    /// A map of `type` (a Map type) from its (key, value) pairs; keys must not be null.
    static Value map(DataType type, std::vector<std::pair<Value, Value>> entries);
    /// A fixed-size list of `type` (a FixedList type); exactly type.size() items.
    static Value fixed_list(DataType type, List items);
    /// A list whose element type is taken from its values (all must agree; nulls fit anything).
    /// Throws SchemaError when the elements disagree.
    static Value list(List items);
    /// A list with an explicit element type (needed for empty lists); values must fit it.
    static Value list(DataType element, List items);

    const DataType& type() const { return type_; }
    bool is_null() const { return null_; }

    bool as_bool() const;
    int64_t as_int() const;                // Int32, Int64, Timestamp, TimestampTz and Date
    double as_double() const;              // Float32 and Float64
    const std::string& as_string() const;  // String, Binary and Decimal (its canonical text)
    /// List and FixedList: the items. Struct: one value per field. Map: the {key, value} entry
    /// structs.
    const List& as_list() const;

    /// Short human-readable rendering for error messages and `taco ls` (binary as <N bytes>).
    std::string to_display() const;

    friend bool operator==(const Value& a, const Value& b);
    friend bool operator!=(const Value& a, const Value& b) { return !(a == b); }

  private:
    bool holds_text() const;
    bool holds_list() const;
    void release();
    void copy_from(const Value& other);

    DataType type_;
    bool null_;
    union {
        bool b;
        int64_t i;
        double d;
        std::string* s;  // String, Binary, Decimal
        List* l;         // List, FixedList, Struct, Map
    } u_;
};

/// A named, typed value: one extension field of a sample.
struct Field {
    std::string name;
    Value value;
};

/// A named column type: one entry of a schema.
struct ColumnType {
    std::string name;
    DataType type;
    // Spelt out rather than defaulted, so the public headers also compile as C++17.
    friend bool operator==(const ColumnType& a, const ColumnType& b) {
        return a.name == b.name && a.type == b.type;
    }
    friend bool operator!=(const ColumnType& a, const ColumnType& b) { return !(a == b); }
};

}  // namespace taco
