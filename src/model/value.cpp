// DataType and Value: construction, type unification, names (Arrow / DuckDB) and display.
#include "taco/value.hpp"

#include <cstdio>

#include "taco/errors.hpp"

namespace taco {

DataType DataType::list(DataType element) {
    DataType t(TypeId::List);
    t.element_ = std::make_shared<const DataType>(std::move(element));
    return t;
}

const DataType& DataType::element() const {
    static const DataType kNull;
    return element_ ? *element_ : kNull;
}

bool DataType::is_complete() const {
    if (id_ == TypeId::Null) return false;
    if (id_ == TypeId::List) return element().is_complete();
    return true;
}

bool operator==(const DataType& a, const DataType& b) {
    if (a.id_ != b.id_) return false;
    if (a.id_ != TypeId::List) return true;
    return a.element() == b.element();
}

bool DataType::unify(const DataType& a, const DataType& b, DataType& out) {
    if (a.is_null()) { out = b; return true; }
    if (b.is_null()) { out = a; return true; }
    if (a.id_ != b.id_) return false;
    if (a.id_ != TypeId::List) { out = a; return true; }
    DataType elem;
    if (!unify(a.element(), b.element(), elem)) return false;
    out = list(std::move(elem));
    return true;
}

std::string DataType::arrow_name() const {
    switch (id_) {
        case TypeId::Null: return "null";
        case TypeId::Bool: return "bool";
        case TypeId::Int32: return "int32";
        case TypeId::Int64: return "int64";
        case TypeId::Float32: return "float";
        case TypeId::Float64: return "double";
        case TypeId::String: return "string";
        case TypeId::Binary: return "binary";
        case TypeId::Timestamp: return "timestamp[us]";
        case TypeId::List: return "list<item: " + element().arrow_name() + ">";
    }
    return "null";
}

std::string DataType::sql_name() const {
    switch (id_) {
        // An all-null column has no type; it is stored as text (see docs/FORMAT-DECISIONS.md).
        case TypeId::Null: return "VARCHAR";
        case TypeId::Bool: return "BOOLEAN";
        case TypeId::Int32: return "INTEGER";
        case TypeId::Int64: return "BIGINT";
        case TypeId::Float32: return "FLOAT";
        case TypeId::Float64: return "DOUBLE";
        case TypeId::String: return "VARCHAR";
        case TypeId::Binary: return "BLOB";
        case TypeId::Timestamp: return "TIMESTAMP";
        case TypeId::List: return element().sql_name() + "[]";
    }
    return "VARCHAR";
}

Value Value::null(DataType type) { return Value(std::move(type), std::monostate{}); }

Value Value::int32(int32_t v) { return Value(DataType::int32(), int64_t{v}); }

Value Value::binary(std::string bytes) { return Value(DataType::binary(), std::move(bytes)); }

Value Value::timestamp(int64_t micros) { return Value(DataType::timestamp(), micros); }

Value Value::list(List items) { return list(DataType::null(), std::move(items)); }

Value Value::list(DataType element, List items) {
    DataType elem = std::move(element);
    for (size_t i = 0; i < items.size(); ++i) {
        DataType merged;
        if (!DataType::unify(elem, items[i].type(), merged)) {
            throw SchemaError("list element " + std::to_string(i) + " has type " +
                              items[i].type().arrow_name() + ", expected " + elem.arrow_name() +
                              " like the elements before it");
        }
        elem = std::move(merged);
    }
    return Value(DataType::list(std::move(elem)), std::move(items));
}

namespace {
[[noreturn]] void wrong_type(const Value& v, const char* wanted) {
    throw SchemaError(std::string("value of type ") + v.type().arrow_name() + " read as " + wanted);
}
}  // namespace

bool Value::as_bool() const {
    if (auto p = std::get_if<bool>(&data_)) return *p;
    wrong_type(*this, "bool");
}

int64_t Value::as_int() const {
    if (auto p = std::get_if<int64_t>(&data_)) return *p;
    wrong_type(*this, "integer");
}

double Value::as_double() const {
    if (auto p = std::get_if<double>(&data_)) return *p;
    wrong_type(*this, "floating point");
}

const std::string& Value::as_string() const {
    if (auto p = std::get_if<std::string>(&data_)) return *p;
    wrong_type(*this, "string");
}

const Value::List& Value::as_list() const {
    if (auto p = std::get_if<List>(&data_)) return *p;
    wrong_type(*this, "list");
}

std::string Value::to_display() const {
    if (is_null()) return "null";
    switch (type_.id()) {
        case TypeId::Bool: return as_bool() ? "true" : "false";
        case TypeId::Int32:
        case TypeId::Int64: return std::to_string(as_int());
        case TypeId::Timestamp: return "timestamp(" + std::to_string(as_int()) + "us)";
        case TypeId::Float32:
        case TypeId::Float64: {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.17g", as_double());
            return buf;
        }
        case TypeId::String: return "'" + as_string() + "'";
        case TypeId::Binary: return "<" + std::to_string(as_string().size()) + " bytes>";
        case TypeId::List: {
            std::string out = "[";
            for (size_t i = 0; i < as_list().size(); ++i) {
                if (i) out += ", ";
                out += as_list()[i].to_display();
            }
            return out + "]";
        }
        case TypeId::Null: break;
    }
    return "null";
}

bool operator==(const Value& a, const Value& b) { return a.type_ == b.type_ && a.data_ == b.data_; }

}  // namespace taco
