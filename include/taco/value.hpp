// Typed metadata values: what a sample's extension fields hold and what the level tables store.
// The types are the Arrow types the reference writer produces (FORMAT.md §4.1, §4.6).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace taco {

enum class TypeId : uint8_t {
    Null,  // a value whose type is not known yet (a bare null)
    Bool,
    Int32,
    Int64,
    Float32,
    Float64,
    String,     // UTF-8 text
    Binary,     // raw bytes (WKB geometries, headers)
    Timestamp,  // microseconds since 1970-01-01T00:00:00 UTC, stored without time zone
    List,       // list of one element type, nested lists allowed
};

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

    TypeId id() const;
    bool is_null() const { return id() == TypeId::Null; }
    bool is_list() const { return id() == TypeId::List; }
    /// Element type of a list (the null type for non-lists).
    DataType element() const;
    /// True when nothing in the type is still unknown (no Null at any depth).
    bool is_complete() const;

    /// The type as pyarrow prints it, e.g. "double", "timestamp[us]", "list<item: list<item:
    /// float>>".
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
    /// A list whose element type is taken from its values (all must agree; nulls fit anything).
    /// Throws SchemaError when the elements disagree.
    static Value list(List items);
    /// A list with an explicit element type (needed for empty lists); values must fit it.
    static Value list(DataType element, List items);

    const DataType& type() const { return type_; }
    bool is_null() const { return null_; }

    bool as_bool() const;
    int64_t as_int() const;                // Int32, Int64 and Timestamp
    double as_double() const;              // Float32 and Float64
    const std::string& as_string() const;  // String and Binary
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
        std::string* s;  // String, Binary
        List* l;         // List
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
    friend bool operator==(const ColumnType&, const ColumnType&) = default;
};

}  // namespace taco
