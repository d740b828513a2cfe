// DataType and Value: construction, type unification, names (Arrow / DuckDB) and display.
#include "taco/value.hpp"

#include <cstdio>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "taco/errors.hpp"

namespace taco {

namespace detail {
struct TypeNode {
    TypeId id;
    const TypeNode* element;  // List only
};
}  // namespace detail

namespace {

// Scalar types are static nodes; list types are created once per element type and never freed,
// so a DataType is a stable pointer and equality is pointer equality.
const detail::TypeNode kScalarNodes[] = {
    {TypeId::Null, nullptr},   {TypeId::Bool, nullptr},    {TypeId::Int32, nullptr},
    {TypeId::Int64, nullptr},  {TypeId::Float32, nullptr}, {TypeId::Float64, nullptr},
    {TypeId::String, nullptr}, {TypeId::Binary, nullptr},  {TypeId::Timestamp, nullptr},
};

const detail::TypeNode* list_node(const detail::TypeNode* element) {
    static std::mutex mutex;
    static std::unordered_map<const detail::TypeNode*, std::unique_ptr<detail::TypeNode>> lists;
    std::lock_guard<std::mutex> lock(mutex);
    auto& slot = lists[element];
    if (!slot) slot = std::make_unique<detail::TypeNode>(detail::TypeNode{TypeId::List, element});
    return slot.get();
}

}  // namespace

DataType::DataType() : node_(&kScalarNodes[0]) {}

DataType DataType::of(TypeId id) {
    return DataType(&kScalarNodes[static_cast<size_t>(id)]);
}

DataType DataType::list(DataType element) {
    return DataType(list_node(element.node_));
}

TypeId DataType::id() const {
    return node_->id;
}

DataType DataType::element() const {
    return node_->element ? DataType(node_->element) : DataType();
}

bool DataType::is_complete() const {
    if (id() == TypeId::Null) return false;
    if (id() == TypeId::List) return element().is_complete();
    return true;
}

bool DataType::unify(const DataType& a, const DataType& b, DataType& out) {
    if (a.is_null()) {
        out = b;
        return true;
    }
    if (b.is_null()) {
        out = a;
        return true;
    }
    if (a.id() != b.id()) return false;
    if (a.id() != TypeId::List) {
        out = a;
        return true;
    }
    DataType elem;
    if (!unify(a.element(), b.element(), elem)) return false;
    out = list(std::move(elem));
    return true;
}

std::string DataType::arrow_name() const {
    switch (id()) {
        case TypeId::Null:
            return "null";
        case TypeId::Bool:
            return "bool";
        case TypeId::Int32:
            return "int32";
        case TypeId::Int64:
            return "int64";
        case TypeId::Float32:
            return "float";
        case TypeId::Float64:
            return "double";
        case TypeId::String:
            return "string";
        case TypeId::Binary:
            return "binary";
        case TypeId::Timestamp:
            return "timestamp[us]";
        case TypeId::List:
            return "list<item: " + element().arrow_name() + ">";
    }
    return "null";
}

std::string DataType::sql_name() const {
    switch (id()) {
        // An all-null column has no type; it is stored as text (see docs/FORMAT-DECISIONS.md).
        case TypeId::Null:
            return "VARCHAR";
        case TypeId::Bool:
            return "BOOLEAN";
        case TypeId::Int32:
            return "INTEGER";
        case TypeId::Int64:
            return "BIGINT";
        case TypeId::Float32:
            return "FLOAT";
        case TypeId::Float64:
            return "DOUBLE";
        case TypeId::String:
            return "VARCHAR";
        case TypeId::Binary:
            return "BLOB";
        case TypeId::Timestamp:
            return "TIMESTAMP";
        case TypeId::List:
            return element().sql_name() + "[]";
    }
    return "VARCHAR";
}

Value::Value(const Value& other) : type_(other.type_), null_(other.null_) {
    copy_from(other);
}

Value::Value(Value&& other) noexcept : type_(other.type_), null_(other.null_), u_(other.u_) {
    other.null_ = true;
    other.type_ = DataType();
    other.u_.i = 0;
}

Value& Value::operator=(const Value& other) {
    if (this != &other) {
        Value copy(other);
        *this = std::move(copy);
    }
    return *this;
}

Value& Value::operator=(Value&& other) noexcept {
    if (this != &other) {
        release();
        type_ = other.type_;
        null_ = other.null_;
        u_ = other.u_;
        other.null_ = true;
        other.type_ = DataType();
        other.u_.i = 0;
    }
    return *this;
}

bool Value::holds_text() const {
    return !null_ && (type_.id() == TypeId::String || type_.id() == TypeId::Binary);
}

bool Value::holds_list() const {
    return !null_ && type_.id() == TypeId::List;
}

void Value::release() {
    if (holds_text()) delete u_.s;
    if (holds_list()) delete u_.l;
    u_.i = 0;
}

void Value::copy_from(const Value& other) {
    if (other.holds_text())
        u_.s = new std::string(*other.u_.s);
    else if (other.holds_list())
        u_.l = new List(*other.u_.l);
    else
        u_ = other.u_;
}

Value Value::null(DataType type) {
    Value v;
    v.type_ = type;
    return v;
}

Value Value::int32(int32_t x) {
    Value v(static_cast<long long>(x));
    v.type_ = DataType::int32();
    return v;
}

Value Value::binary(std::string bytes) {
    Value v(std::move(bytes));
    v.type_ = DataType::binary();
    return v;
}

Value Value::timestamp(int64_t micros) {
    Value v(static_cast<long long>(micros));
    v.type_ = DataType::timestamp();
    return v;
}

Value Value::list(List items) {
    return list(DataType::null(), std::move(items));
}

Value Value::list(DataType element, List items) {
    DataType elem = element;
    for (size_t i = 0; i < items.size(); ++i) {
        DataType merged;
        if (!DataType::unify(elem, items[i].type(), merged)) {
            throw SchemaError("list element " + std::to_string(i) + " has type " +
                              items[i].type().arrow_name() + ", expected " + elem.arrow_name() +
                              " like the elements before it");
        }
        elem = merged;
    }
    Value v;
    v.type_ = DataType::list(elem);
    v.null_ = false;
    v.u_.l = new List(std::move(items));
    return v;
}

namespace {
[[noreturn]] void wrong_type(const Value& v, const char* wanted) {
    throw SchemaError(std::string(v.is_null() ? "null value" : "value") + " of type " +
                      v.type().arrow_name() + " read as " + wanted);
}
}  // namespace

bool Value::as_bool() const {
    if (null_ || type_.id() != TypeId::Bool) wrong_type(*this, "bool");
    return u_.b;
}

int64_t Value::as_int() const {
    TypeId t = type_.id();
    if (null_ || (t != TypeId::Int32 && t != TypeId::Int64 && t != TypeId::Timestamp))
        wrong_type(*this, "integer");
    return u_.i;
}

double Value::as_double() const {
    TypeId t = type_.id();
    if (null_ || (t != TypeId::Float32 && t != TypeId::Float64))
        wrong_type(*this, "floating point");
    return u_.d;
}

const std::string& Value::as_string() const {
    if (!holds_text()) wrong_type(*this, "string");
    return *u_.s;
}

const Value::List& Value::as_list() const {
    if (!holds_list()) wrong_type(*this, "list");
    return *u_.l;
}

std::string Value::to_display() const {
    if (is_null()) return "null";
    switch (type_.id()) {
        case TypeId::Bool:
            return as_bool() ? "true" : "false";
        case TypeId::Int32:
        case TypeId::Int64:
            return std::to_string(as_int());
        case TypeId::Timestamp:
            return "timestamp(" + std::to_string(as_int()) + "us)";
        case TypeId::Float32:
        case TypeId::Float64: {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.17g", as_double());
            return buf;
        }
        case TypeId::String:
            return "'" + as_string() + "'";
        case TypeId::Binary:
            return "<" + std::to_string(as_string().size()) + " bytes>";
        case TypeId::List: {
            std::string out = "[";
            for (size_t i = 0; i < as_list().size(); ++i) {
                if (i) out += ", ";
                out += as_list()[i].to_display();
            }
            return out + "]";
        }
        case TypeId::Null:
            break;
    }
    return "null";
}

bool operator==(const Value& a, const Value& b) {
    if (a.type_ != b.type_ || a.null_ != b.null_) return false;
    if (a.null_) return true;
    switch (a.type_.id()) {
        case TypeId::Bool:
            return a.u_.b == b.u_.b;
        case TypeId::Float32:
        case TypeId::Float64:
            return a.u_.d == b.u_.d;
        case TypeId::String:
        case TypeId::Binary:
            return *a.u_.s == *b.u_.s;
        case TypeId::List:
            return *a.u_.l == *b.u_.l;
        default:
            return a.u_.i == b.u_.i;
    }
}

}  // namespace taco
