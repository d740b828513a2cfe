#include "text/value_text.hpp"

#include <array>
#include <charconv>
#include <cmath>

#include "model/time_format.hpp"

namespace taco::cli {
namespace {

template <typename T>
std::string shortest(T v) {
    if (std::isnan(v)) return "NaN";
    if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

}  // namespace

std::string shortest_text(float v) {
    return shortest(v);
}

std::string shortest_text(double v) {
    return shortest(v);
}

double float32_as_json_number(float v) {
    return std::isfinite(v) ? std::stod(shortest_text(v)) : NAN;
}

std::string hex_text(std::string_view bytes) {
    static const char* digits = "0123456789abcdef";
    std::string out;
    out.reserve(bytes.size() * 2);
    for (unsigned char c : bytes) {
        out += digits[c >> 4];
        out += digits[c & 15];
    }
    return out;
}

void append_csv_field(std::string& out, std::string_view s) {
    // A table lookup per byte: find_first_of calls memchr on the four characters for each byte.
    static constexpr auto kSpecial = [] {
        std::array<bool, 256> t{};
        t[','] = t['"'] = t['\r'] = t['\n'] = true;
        return t;
    }();
    size_t i = 0;
    while (i < s.size() && !kSpecial[static_cast<unsigned char>(s[i])]) ++i;
    if (i == s.size()) {
        out.append(s);
        return;
    }
    out += '"';
    for (char c : s) {
        if (c == '"') out += '"';
        out += c;
    }
    out += '"';
}

Json value_to_json(const Value& v) {
    if (v.is_null()) return nullptr;
    switch (v.type().id()) {
        case TypeId::Bool:
            return v.as_bool();
        case TypeId::Int32:
        case TypeId::Int64:
            return v.as_int();
        case TypeId::Float32: {
            const double d = float32_as_json_number(static_cast<float>(v.as_double()));
            return std::isfinite(d) ? Json(d) : Json(nullptr);
        }
        case TypeId::Float64:
            return std::isfinite(v.as_double()) ? Json(v.as_double()) : Json(nullptr);
        case TypeId::Timestamp:
            return model::format_iso_utc(v.as_int());
        case TypeId::String:
            return v.as_string();
        case TypeId::Binary:
            return hex_text(v.as_string());
        case TypeId::List:
        case TypeId::FixedList: {
            Json arr = Json::array();
            for (const auto& item : v.as_list()) arr.push_back(value_to_json(item));
            return arr;
        }
        case TypeId::TimestampTz:
            return model::format_iso_utc(v.as_int());
        case TypeId::Date:
            return model::format_iso_date(v.as_int());
        case TypeId::Decimal:
            // Decided by the column's type, never value by value, so a column is all numbers or
            // all strings: a JSON number when a double holds every value of the type exactly
            // (precision <= 15 digits), else the exact text as a string, never a rounded number.
            if (v.type().size() <= 15) return Json::parse(v.as_string());
            return v.as_string();
        case TypeId::Struct: {
            Json obj = Json::object();
            const auto& fields = v.as_list();
            for (size_t i = 0; i < fields.size(); ++i)
                obj[v.type().field_name(i)] = value_to_json(fields[i]);
            return obj;
        }
        case TypeId::Map: {
            // Text keys make a JSON object; other keys an array of {"key", "value"} objects.
            const bool text_keys = v.type().field_type(0).id() == TypeId::String;
            Json out = text_keys ? Json::object() : Json::array();
            for (const auto& entry : v.as_list()) {
                const auto& kv = entry.as_list();
                if (text_keys) {
                    out[kv[0].as_string()] = value_to_json(kv[1]);
                } else {
                    out.push_back({{"key", value_to_json(kv[0])}, {"value", value_to_json(kv[1])}});
                }
            }
            return out;
        }
        case TypeId::Null:
            break;
    }
    return nullptr;
}

std::string value_to_text(const Value& v) {
    if (v.is_null()) return "null";
    switch (v.type().id()) {
        case TypeId::Float32:
            return shortest_text(static_cast<float>(v.as_double()));
        case TypeId::Float64:
            return shortest_text(v.as_double());
        case TypeId::String:
        case TypeId::Decimal:
            return v.as_string();
        case TypeId::List:
        case TypeId::FixedList:
        case TypeId::Struct:
        case TypeId::Map:
            return value_to_json(v).dump();
        default: {
            const Json j = value_to_json(v);
            return j.is_string() ? j.get<std::string>() : j.dump();
        }
    }
}

}  // namespace taco::cli
