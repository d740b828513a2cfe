// DataType and Value: construction, type unification, names (Arrow / DuckDB) and display.
#include "taco/value.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "taco/errors.hpp"

namespace taco {

namespace detail {
struct TypeNode {
    TypeId id;
    const TypeNode* element = nullptr;                                 // List, FixedList
    std::vector<std::pair<std::string, const TypeNode*>> fields = {};  // Struct; Map: key, value
    int size = 0;                     // FixedList: element count; Decimal: precision
    int scale = 0;                    // Decimal
    int depth = 0;                    // levels of nesting below and including this type
    const TypeNode* entry = nullptr;  // Map: the {key, value} struct of its entries
};
}  // namespace detail

namespace {

using detail::TypeNode;

// Scalar types are static nodes; composite types are created once per shape and never freed,
// so a DataType is a stable pointer and equality is pointer equality.
const TypeNode kScalarNodes[] = {
    {TypeId::Null},      {TypeId::Bool},    {TypeId::Int32},  {TypeId::Int64},
    {TypeId::Float32},   {TypeId::Float64}, {TypeId::String}, {TypeId::Binary},
    {TypeId::Timestamp}, {TypeId::List},    {TypeId::Date},   {TypeId::TimestampTz},
};

const TypeNode* scalar_node(TypeId id) {
    return &kScalarNodes[static_cast<size_t>(id)];
}

void check_depth(int depth) {
    if (depth > kMaxNestingDepth) {
        throw SchemaError("type nested " + std::to_string(depth) + " levels deep; the limit is " +
                          std::to_string(kMaxNestingDepth) +
                          " (lists, structs and maps each count one level)");
    }
}

std::mutex& intern_mutex() {
    static std::mutex m;
    return m;
}

const TypeNode* list_node(const TypeNode* element) {
    check_depth(element->depth + 1);
    static std::unordered_map<const TypeNode*, std::unique_ptr<TypeNode>> lists;
    std::lock_guard<std::mutex> lock(intern_mutex());
    auto& slot = lists[element];
    if (!slot) {
        slot = std::make_unique<TypeNode>(TypeNode{TypeId::List, element});
        slot->depth = element->depth + 1;
    }
    return slot.get();
}

// Interns a composite node by a key that spells its whole shape (children are interned, so
// their addresses identify them).
const TypeNode* intern(TypeNode node) {
    std::string key = std::to_string(static_cast<int>(node.id)) + ":" +
                      std::to_string(reinterpret_cast<uintptr_t>(node.element)) + ":" +
                      std::to_string(node.size) + ":" + std::to_string(node.scale);
    int depth = node.element ? node.element->depth : 0;
    for (const auto& [name, type] : node.fields) {
        key += ":" + std::to_string(name.size()) + "=" + name + "@" +
               std::to_string(reinterpret_cast<uintptr_t>(type));
        depth = std::max(depth, type->depth);
    }
    if (node.id != TypeId::Decimal) {
        node.depth = depth + 1;
        check_depth(node.depth);
    }
    static std::unordered_map<std::string, std::unique_ptr<TypeNode>> nodes;
    std::lock_guard<std::mutex> lock(intern_mutex());
    auto& slot = nodes[key];
    if (!slot) slot = std::make_unique<TypeNode>(std::move(node));
    return slot.get();
}

const std::string& empty_name() {
    static const std::string empty;
    return empty;
}

// Field names inside DuckDB's STRUCT(...) are quoted identifiers.
std::string quote_name(const std::string& name) {
    std::string out = "\"";
    for (char c : name) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

}  // namespace

DataType::DataType() : node_(&kScalarNodes[0]) {}

DataType DataType::of(TypeId id) {
    return DataType(scalar_node(id));
}

DataType DataType::list(DataType element) {
    return DataType(list_node(element.node_));
}

DataType DataType::decimal(int precision, int scale) {
    if (precision < 1 || precision > 38 || scale < 0 || scale > precision) {
        throw SchemaError("decimal(" + std::to_string(precision) + ", " + std::to_string(scale) +
                          ") is not a valid decimal type: precision must be 1..38 and scale "
                          "0..precision");
    }
    TypeNode n{TypeId::Decimal};
    n.size = precision;
    n.scale = scale;
    return DataType(intern(std::move(n)));
}

DataType DataType::structure(const std::vector<std::pair<std::string, DataType>>& fields) {
    TypeNode n{TypeId::Struct};
    for (size_t i = 0; i < fields.size(); ++i) {
        const std::string& name = fields[i].first;
        if (name.empty()) throw SchemaError("struct field " + std::to_string(i) + " has no name");
        for (size_t j = 0; j < i; ++j) {
            if (fields[j].first == name)
                throw SchemaError("struct field '" + name + "' appears twice");
        }
        n.fields.emplace_back(name, fields[i].second.node_);
    }
    return DataType(intern(std::move(n)));
}

DataType DataType::map(DataType key, DataType value) {
    const DataType entry = structure({{"key", key}, {"value", value}});
    TypeNode n{TypeId::Map};
    n.fields = {{"key", key.node_}, {"value", value.node_}};
    n.entry = entry.node_;
    return DataType(intern(std::move(n)));
}

DataType DataType::fixed_list(DataType element, int size) {
    if (size < 1) {
        throw SchemaError("a fixed-size list needs at least one element, not " +
                          std::to_string(size));
    }
    TypeNode n{TypeId::FixedList, element.node_};
    n.size = size;
    return DataType(intern(std::move(n)));
}

TypeId DataType::id() const {
    return node_->id;
}

DataType DataType::element() const {
    return node_->element ? DataType(node_->element) : DataType();
}

size_t DataType::field_count() const {
    return node_->fields.size();
}

const std::string& DataType::field_name(size_t i) const {
    return i < node_->fields.size() ? node_->fields[i].first : empty_name();
}

DataType DataType::field_type(size_t i) const {
    return i < node_->fields.size() ? DataType(node_->fields[i].second) : DataType();
}

DataType DataType::map_entry() const {
    return node_->entry ? DataType(node_->entry) : DataType();
}

int DataType::size() const {
    return node_->size;
}

int DataType::scale() const {
    return node_->scale;
}

int DataType::depth() const {
    return node_->depth;
}

bool DataType::is_complete() const {
    switch (id()) {
        case TypeId::Null:
            return false;
        case TypeId::List:
        case TypeId::FixedList:
            return element().is_complete();
        case TypeId::Struct:
        case TypeId::Map:
            for (size_t i = 0; i < field_count(); ++i)
                if (!field_type(i).is_complete()) return false;
            return true;
        default:
            return true;
    }
}

bool DataType::unify(const DataType& a, const DataType& b, DataType& out) {
    if (a.is_null()) {
        out = b;
        return true;
    }
    if (b.is_null() || a == b) {
        out = a;
        return true;
    }
    if (a.id() != b.id()) return false;
    switch (a.id()) {
        case TypeId::List: {
            DataType elem;
            if (!unify(a.element(), b.element(), elem)) return false;
            out = list(elem);
            return true;
        }
        case TypeId::FixedList: {
            DataType elem;
            if (a.size() != b.size() || !unify(a.element(), b.element(), elem)) return false;
            out = fixed_list(elem, a.size());
            return true;
        }
        case TypeId::Struct: {
            if (a.field_count() != b.field_count()) return false;
            std::vector<std::pair<std::string, DataType>> fields;
            for (size_t i = 0; i < a.field_count(); ++i) {
                DataType f;
                if (a.field_name(i) != b.field_name(i) ||
                    !unify(a.field_type(i), b.field_type(i), f))
                    return false;
                fields.emplace_back(a.field_name(i), f);
            }
            out = structure(fields);
            return true;
        }
        case TypeId::Map: {
            DataType k, v;
            if (!unify(a.field_type(0), b.field_type(0), k) ||
                !unify(a.field_type(1), b.field_type(1), v))
                return false;
            out = map(k, v);
            return true;
        }
        case TypeId::Decimal: {
            // Decimals widen to hold both: the larger integer part and the larger scale.
            const int scale = std::max(a.scale(), b.scale());
            const int whole = std::max(a.size() - a.scale(), b.size() - b.scale());
            if (whole + scale > 38) return false;
            out = decimal(whole + scale, scale);
            return true;
        }
        default:
            // Other scalars of one id are one node.
            return false;
    }
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
        case TypeId::Date:
            return "date32[day]";
        case TypeId::TimestampTz:
            return "timestamp[us, tz=UTC]";
        case TypeId::Decimal:
            return "decimal128(" + std::to_string(size()) + ", " + std::to_string(scale()) + ")";
        case TypeId::Struct: {
            std::string out = "struct<";
            for (size_t i = 0; i < field_count(); ++i) {
                out += (i ? ", " : "") + field_name(i) + ": " + field_type(i).arrow_name();
            }
            return out + ">";
        }
        case TypeId::Map:
            return "map<" + field_type(0).arrow_name() + ", " + field_type(1).arrow_name() + ">";
        case TypeId::FixedList:
            return "fixed_size_list<item: " + element().arrow_name() + ">[" +
                   std::to_string(size()) + "]";
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
        case TypeId::Date:
            return "DATE";
        case TypeId::TimestampTz:
            return "TIMESTAMPTZ";
        case TypeId::Decimal:
            return "DECIMAL(" + std::to_string(size()) + "," + std::to_string(scale()) + ")";
        case TypeId::Struct: {
            std::string out = "STRUCT(";
            for (size_t i = 0; i < field_count(); ++i) {
                out += (i ? ", " : "") + quote_name(field_name(i)) + " " + field_type(i).sql_name();
            }
            return out + ")";
        }
        case TypeId::Map:
            return "MAP(" + field_type(0).sql_name() + ", " + field_type(1).sql_name() + ")";
        case TypeId::FixedList:
            return element().sql_name() + "[" + std::to_string(size()) + "]";
    }
    return "VARCHAR";
}

Value::Value(unsigned long long v) : type_(DataType::int64()), null_(false) {
    if (v > static_cast<unsigned long long>(INT64_MAX)) {
        throw SchemaError("the integer " + std::to_string(v) +
                          " does not fit int64, the type TACO stores integers as");
    }
    u_.i = static_cast<int64_t>(v);
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
    if (null_) return false;
    const TypeId t = type_.id();
    return t == TypeId::String || t == TypeId::Binary || t == TypeId::Decimal;
}

bool Value::holds_list() const {
    if (null_) return false;
    const TypeId t = type_.id();
    return t == TypeId::List || t == TypeId::FixedList || t == TypeId::Struct || t == TypeId::Map;
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

Value Value::date(int32_t days) {
    Value v(static_cast<long long>(days));
    v.type_ = DataType::date();
    return v;
}

Value Value::timestamp_tz(int64_t micros) {
    Value v(static_cast<long long>(micros));
    v.type_ = DataType::timestamp_tz();
    return v;
}

namespace {

// Checks that `value` fits `expected` (nulls and unknown parts fit anything); `where` names the
// place for the message.
void require_fits(const Value& value, const DataType& expected, const std::string& where) {
    DataType merged;
    if (!DataType::unify(expected, value.type(), merged) || merged != expected) {
        throw SchemaError(where + " has type " + value.type().arrow_name() + ", expected " +
                          expected.arrow_name());
    }
}

// The canonical text of a decimal: optional '-', integer digits without leading zeros, and
// exactly `scale` fractional digits. Empty when `text` is not a plain decimal number.
std::string canonical_decimal(std::string_view text, int precision, int scale, std::string& error) {
    std::string_view t = text;
    bool negative = false;
    if (!t.empty() && (t[0] == '-' || t[0] == '+')) {
        negative = t[0] == '-';
        t.remove_prefix(1);
    }
    const size_t dot = t.find('.');
    std::string_view whole = t.substr(0, dot);
    std::string_view frac = dot == std::string_view::npos ? std::string_view() : t.substr(dot + 1);
    const auto digits = [](std::string_view d) {
        return std::all_of(d.begin(), d.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    if ((whole.empty() && frac.empty()) || !digits(whole) || !digits(frac)) {
        error = "is not a decimal number";
        return {};
    }
    while (whole.size() > 1 && whole[0] == '0') whole.remove_prefix(1);
    if (whole == "0") whole = {};
    std::string f(frac);
    while (static_cast<int>(f.size()) > scale && f.back() == '0') f.pop_back();
    if (static_cast<int>(f.size()) > scale) {
        error = "has more than " + std::to_string(scale) + " fractional digits";
        return {};
    }
    f.append(scale - f.size(), '0');
    if (static_cast<int>(whole.size()) > precision - scale) {
        error = "does not fit " + std::to_string(precision) + " digits with " +
                std::to_string(scale) + " after the point";
        return {};
    }
    const bool zero = whole.empty() && f.find_first_not_of('0') == std::string::npos;
    std::string out = negative && !zero ? "-" : "";
    out += whole.empty() ? "0" : std::string(whole);
    if (scale > 0) out += "." + f;
    return out;
}

}  // namespace

Value Value::decimal(DataType type, std::string_view text) {
    if (type.id() != TypeId::Decimal) {
        throw SchemaError("Value::decimal needs a decimal type, not " + type.arrow_name());
    }
    std::string error;
    std::string canonical = canonical_decimal(text, type.size(), type.scale(), error);
    if (canonical.empty()) {
        std::string shown(text.substr(0, 60));
        throw SchemaError("decimal value '" + shown + "' " + error + " (type " + type.arrow_name() +
                          ")");
    }
    Value v(std::move(canonical));
    v.type_ = type;
    return v;
}

Value Value::structure(DataType type, List fields) {
    if (type.id() != TypeId::Struct) {
        throw SchemaError("Value::structure needs a struct type, not " + type.arrow_name());
    }
    if (fields.size() != type.field_count()) {
        throw SchemaError("a value of " + type.arrow_name() + " needs " +
                          std::to_string(type.field_count()) + " fields, not " +
                          std::to_string(fields.size()));
    }
    for (size_t i = 0; i < fields.size(); ++i)
        require_fits(fields[i], type.field_type(i), "struct field '" + type.field_name(i) + "'");
    Value v;
    v.type_ = type;
    v.null_ = false;
    v.u_.l = new List(std::move(fields));
    return v;
}

Value Value::structure(std::vector<std::pair<std::string, Value>> fields) {
    std::vector<std::pair<std::string, DataType>> types;
    List values;
    types.reserve(fields.size());
    values.reserve(fields.size());
    for (auto& [name, value] : fields) {
        types.emplace_back(name, value.type());
        values.push_back(std::move(value));
    }
    return structure(DataType::structure(types), std::move(values));
}

Value Value::map(DataType type, std::vector<std::pair<Value, Value>> entries) {
    if (type.id() != TypeId::Map) {
        throw SchemaError("Value::map needs a map type, not " + type.arrow_name());
    }
    List items;
    items.reserve(entries.size());
    for (size_t i = 0; i < entries.size(); ++i) {
        if (entries[i].first.is_null())
            throw SchemaError("map entry " + std::to_string(i) + " has a null key");
        List kv;
        kv.push_back(std::move(entries[i].first));
        kv.push_back(std::move(entries[i].second));
        items.push_back(structure(type.map_entry(), std::move(kv)));
    }
    Value v;
    v.type_ = type;
    v.null_ = false;
    v.u_.l = new List(std::move(items));
    return v;
}

Value Value::fixed_list(DataType type, List items) {
    if (type.id() != TypeId::FixedList) {
        throw SchemaError("Value::fixed_list needs a fixed-size list type, not " +
                          type.arrow_name());
    }
    if (items.size() != static_cast<size_t>(type.size())) {
        throw SchemaError("a value of " + type.arrow_name() + " needs " +
                          std::to_string(type.size()) + " items, not " +
                          std::to_string(items.size()));
    }
    for (size_t i = 0; i < items.size(); ++i)
        require_fits(items[i], type.element(), "fixed-size list item " + std::to_string(i));
    Value v;
    v.type_ = type;
    v.null_ = false;
    v.u_.l = new List(std::move(items));
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
    if (null_ || (t != TypeId::Int32 && t != TypeId::Int64 && t != TypeId::Timestamp &&
                  t != TypeId::TimestampTz && t != TypeId::Date))
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
        case TypeId::List:
        case TypeId::FixedList: {
            std::string out = "[";
            for (size_t i = 0; i < as_list().size(); ++i) {
                if (i) out += ", ";
                out += as_list()[i].to_display();
            }
            return out + "]";
        }
        case TypeId::Date:
            return "date(" + std::to_string(as_int()) + "d)";
        case TypeId::TimestampTz:
            return "timestamptz(" + std::to_string(as_int()) + "us)";
        case TypeId::Decimal:
            return as_string();
        case TypeId::Struct: {
            std::string out = "{";
            for (size_t i = 0; i < as_list().size(); ++i) {
                if (i) out += ", ";
                out += type_.field_name(i) + ": " + as_list()[i].to_display();
            }
            return out + "}";
        }
        case TypeId::Map: {
            std::string out = "{";
            for (size_t i = 0; i < as_list().size(); ++i) {
                if (i) out += ", ";
                const List& kv = as_list()[i].as_list();
                out += kv[0].to_display() + ": " + kv[1].to_display();
            }
            return out + "}";
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
        case TypeId::Decimal:
            return *a.u_.s == *b.u_.s;
        case TypeId::List:
        case TypeId::FixedList:
        case TypeId::Struct:
        case TypeId::Map:
            return *a.u_.l == *b.u_.l;
        default:
            return a.u_.i == b.u_.i;
    }
}

}  // namespace taco
