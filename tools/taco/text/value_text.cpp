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
        case TypeId::Decimal: {
            // The tree form has no exact number: a double where it holds the value exactly (15
            // significant digits), else the exact text. What the commands print is the exact
            // number (append_value_json); this form serves the tests and callers of the tree.
            const std::string& text = v.as_string();
            size_t significant = 0;
            bool leading = true;
            for (char c : text) {
                if (c < '0' || c > '9') continue;
                if (leading && c == '0') continue;
                leading = false;
                ++significant;
            }
            if (significant <= 15) return Json::parse(text);
            return text;
        }
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

namespace {

// Whether `text` is a JSON number (RFC 8259 §6): -?(0|[1-9][0-9]*)(\.[0-9]+)?, no exponent
// (a decimal's text never has one).
bool json_number_text(std::string_view text) {
    size_t i = text.starts_with('-') ? 1 : 0;
    const size_t int_begin = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    const size_t int_digits = i - int_begin;
    if (int_digits == 0 || (int_digits > 1 && text[int_begin] == '0')) return false;
    if (i == text.size()) return true;
    if (text[i] != '.') return false;
    const size_t frac_begin = ++i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    return i == text.size() && i > frac_begin;
}

void append_leaf_json(std::string& out, const Json& j) {
    out += j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace

namespace {

// How a float that is not finite is written inside a nested value.
enum class NonFinite { Null, Token };

void append_nested(std::string& out, const Value& v, NonFinite non_finite);

}  // namespace

void append_value_json(std::string& out, const Value& v) {
    append_nested(out, v, NonFinite::Null);
}

namespace {

void append_nested(std::string& out, const Value& v, NonFinite non_finite) {
    if (v.is_null()) {
        out += "null";
        return;
    }
    switch (v.type().id()) {
        case TypeId::Decimal: {
            const std::string& text = v.as_string();
            if (json_number_text(text)) {
                out += text;
            } else {
                append_leaf_json(out, Json(text));
            }
            return;
        }
        case TypeId::List:
        case TypeId::FixedList: {
            out += '[';
            bool first = true;
            for (const auto& item : v.as_list()) {
                if (!first) out += ',';
                first = false;
                append_nested(out, item, non_finite);
            }
            out += ']';
            return;
        }
        case TypeId::Struct: {
            out += '{';
            const auto& fields = v.as_list();
            for (size_t i = 0; i < fields.size(); ++i) {
                if (i) out += ',';
                append_leaf_json(out, Json(v.type().field_name(i)));
                out += ':';
                append_nested(out, fields[i], non_finite);
            }
            out += '}';
            return;
        }
        case TypeId::Map: {
            const bool text_keys = v.type().field_type(0).id() == TypeId::String;
            out += text_keys ? '{' : '[';
            bool first = true;
            for (const auto& entry : v.as_list()) {
                if (!first) out += ',';
                first = false;
                const auto& kv = entry.as_list();
                if (text_keys) {
                    append_leaf_json(out, Json(kv[0].as_string()));
                    out += ':';
                    append_nested(out, kv[1], non_finite);
                } else {
                    out += "{\"key\":";
                    append_nested(out, kv[0], non_finite);
                    out += ",\"value\":";
                    append_nested(out, kv[1], non_finite);
                    out += '}';
                }
            }
            out += text_keys ? '}' : ']';
            return;
        }
        case TypeId::Float32:
        case TypeId::Float64:
            if (non_finite == NonFinite::Token && !std::isfinite(v.as_double())) {
                out += shortest_text(v.as_double());  // NaN, Infinity, -Infinity
                return;
            }
            append_leaf_json(out, value_to_json(v));
            return;
        default:
            append_leaf_json(out, value_to_json(v));
    }
}

}  // namespace

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
        case TypeId::Map: {
            std::string out;
            append_nested(out, v, NonFinite::Token);
            return out;
        }
        default: {
            const Json j = value_to_json(v);
            return j.is_string() ? j.get<std::string>() : j.dump();
        }
    }
}

}  // namespace taco::cli
