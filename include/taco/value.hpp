// Typed metadata values: what a sample's extension fields hold and what the level tables store.
// The types are the Arrow types the reference writer produces (FORMAT.md §4.1, §4.6).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace taco {

enum class TypeId : uint8_t {
    Null,       // a value whose type is not known yet (a bare null)
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

/// A metadata column type. Lists carry their element type, to any depth.
class DataType {
public:
    DataType() = default;
    static DataType null() { return DataType(TypeId::Null); }
    static DataType boolean() { return DataType(TypeId::Bool); }
    static DataType int32() { return DataType(TypeId::Int32); }
    static DataType int64() { return DataType(TypeId::Int64); }
    static DataType float32() { return DataType(TypeId::Float32); }
    static DataType float64() { return DataType(TypeId::Float64); }
    static DataType string() { return DataType(TypeId::String); }
    static DataType binary() { return DataType(TypeId::Binary); }
    static DataType timestamp() { return DataType(TypeId::Timestamp); }
    static DataType list(DataType element);

    TypeId id() const { return id_; }
    bool is_null() const { return id_ == TypeId::Null; }
    bool is_list() const { return id_ == TypeId::List; }
    /// Element type of a list (the null type for non-lists).
    const DataType& element() const;
    /// True when nothing in the type is still unknown (no Null at any depth).
    bool is_complete() const;

    /// The type as pyarrow prints it, e.g. "double", "timestamp[us]", "list<item: list<item: float>>".
    std::string arrow_name() const;
    /// The DuckDB SQL type, e.g. "DOUBLE", "TIMESTAMP", "FLOAT[][]".
    std::string sql_name() const;

    /// Merges two types where one side may still be unknown (null, or a list of null).
    /// Returns false when they conflict; `out` is then unspecified.
    static bool unify(const DataType& a, const DataType& b, DataType& out);

    friend bool operator==(const DataType& a, const DataType& b);
    friend bool operator!=(const DataType& a, const DataType& b) { return !(a == b); }

private:
    explicit DataType(TypeId id) : id_(id) {}
    TypeId id_ = TypeId::Null;
    std::shared_ptr<const DataType> element_;
};

/// One typed value, possibly null. A null keeps a type when it has one (typed null).
class Value {
public:
    using List = std::vector<Value>;

    Value() = default;  // untyped null
    Value(bool v) : type_(DataType::boolean()), data_(v) {}
    Value(int v) : type_(DataType::int64()), data_(int64_t{v}) {}
    Value(long v) : type_(DataType::int64()), data_(int64_t{v}) {}
    Value(long long v) : type_(DataType::int64()), data_(int64_t{v}) {}
    Value(double v) : type_(DataType::float64()), data_(v) {}
    Value(float v) : type_(DataType::float32()), data_(double{v}) {}
    Value(std::string v) : type_(DataType::string()), data_(std::move(v)) {}
    Value(std::string_view v) : Value(std::string(v)) {}
    Value(const char* v) : Value(std::string(v)) {}

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
    bool is_null() const { return std::holds_alternative<std::monostate>(data_); }

    bool as_bool() const;
    int64_t as_int() const;        // Int32, Int64 and Timestamp
    double as_double() const;      // Float32 and Float64
    const std::string& as_string() const;  // String and Binary
    const List& as_list() const;

    /// Short human-readable rendering for error messages and `taco ls` (binary as <N bytes>).
    std::string to_display() const;

    friend bool operator==(const Value& a, const Value& b);

private:
    Value(DataType t, std::variant<std::monostate, bool, int64_t, double, std::string, List> d)
        : type_(std::move(t)), data_(std::move(d)) {}
    DataType type_;
    std::variant<std::monostate, bool, int64_t, double, std::string, List> data_;
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
