#include "model/python_str.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <string_view>

#include "model/time_format.hpp"

namespace taco::model {
namespace {

// Python's repr(float): the shortest digits that read back as the same double, in fixed
// notation when the decimal exponent is in [-4, 16), with ".0" when there is no fraction;
// else d.ddde±XX (at least two exponent digits).
std::string python_float(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
    const std::string_view sci(buf, static_cast<size_t>(r.ptr - buf));  // "-1.2345e+05"
    const size_t e_pos = sci.find('e');
    const bool negative = sci.front() == '-';
    std::string digits;  // significant digits, without the point
    for (char c : sci.substr(0, e_pos))
        if (c >= '0' && c <= '9') digits += c;
    int exponent = 0;
    std::from_chars(sci.data() + e_pos + (sci[e_pos + 1] == '+' ? 2 : 1), sci.data() + sci.size(),
                    exponent);
    std::string out = negative ? "-" : "";
    if (exponent >= -4 && exponent < 16) {
        if (exponent < 0) {
            out += "0." + std::string(static_cast<size_t>(-exponent - 1), '0') + digits;
        } else {
            const size_t int_digits = static_cast<size_t>(exponent) + 1;
            if (digits.size() <= int_digits) {
                out += digits + std::string(int_digits - digits.size(), '0') + ".0";
            } else {
                out += digits.substr(0, int_digits) + "." + digits.substr(int_digits);
            }
        }
        return out;
    }
    out += digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    char exp[16];
    std::snprintf(exp, sizeof exp, "e%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
    return out + exp;
}

// repr() of bytes (b'...') or of text ('...'): double quotes when there is a ' and no ",
// backslash and the quote escaped, \t \n \r, other control bytes as \xNN; bytes also escape
// everything outside printable ASCII, text keeps its UTF-8 characters as they are.
std::string python_quoted(std::string_view s, bool bytes) {
    const bool double_quote =
        s.find('\'') != std::string_view::npos && s.find('"') == std::string_view::npos;
    const char quote = double_quote ? '"' : '\'';
    std::string out = bytes ? "b" : "";
    out += quote;
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        if (c == '\\' || ch == quote) {
            out += '\\';
            out += ch;
        } else if (c == '\t') {
            out += "\\t";
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\r') {
            out += "\\r";
        } else if (c < 0x20 || c == 0x7f || (bytes && c > 0x7f)) {
            char hex[8];
            std::snprintf(hex, sizeof hex, "\\x%02x", c);
            out += hex;
        } else {
            out += ch;
        }
    }
    return out + quote;
}

// str(datetime): isoformat with a space between date and time ("Z" is not Python's spelling).
std::string python_datetime(int64_t micros, bool zoned) {
    std::string iso = format_iso_utc(micros);  // "2023-01-01T00:00:00[.ffffff]Z"
    const size_t t = iso.find('T');
    if (t != std::string::npos) iso[t] = ' ';
    if (!iso.empty() && iso.back() == 'Z') iso.pop_back();
    return zoned ? iso + "+00:00" : iso;
}

}  // namespace

std::string python_repr(const Value& v) {
    // Dates, times and decimals inside a list would print their class (datetime.datetime(2020,
    // 1, 1, 0, 0)); their str() names a part as well and reads better.
    if (!v.is_null() && v.type().id() == TypeId::String) return python_quoted(v.as_string(), false);
    return python_str(v);
}

std::string python_str(const Value& v) {
    if (v.is_null()) return "None";
    switch (v.type().id()) {
        case TypeId::Bool:
            return v.as_bool() ? "True" : "False";
        case TypeId::Int32:
        case TypeId::Int64:
            return std::to_string(v.as_int());
        case TypeId::Float32:
        case TypeId::Float64:
            return python_float(v.as_double());
        case TypeId::String:
        case TypeId::Decimal:
            return v.as_string();
        case TypeId::Binary:
            return python_quoted(v.as_string(), true);
        case TypeId::Timestamp:
            return python_datetime(v.as_int(), false);
        case TypeId::TimestampTz:
            return python_datetime(v.as_int(), true);
        case TypeId::Date:
            return format_iso_date(v.as_int());
        case TypeId::List:
        case TypeId::FixedList: {
            std::string out = "[";
            for (size_t i = 0; i < v.as_list().size(); ++i)
                out += (i ? ", " : "") + python_repr(v.as_list()[i]);
            return out + "]";
        }
        case TypeId::Struct: {
            std::string out = "{";
            for (size_t i = 0; i < v.as_list().size(); ++i) {
                out += (i ? ", " : "") + python_quoted(v.type().field_name(i), false) + ": " +
                       python_repr(v.as_list()[i]);
            }
            return out + "}";
        }
        case TypeId::Map: {
            std::string out = "[";
            for (size_t i = 0; i < v.as_list().size(); ++i) {
                const Value::List& kv = v.as_list()[i].as_list();
                out += (i ? ", (" : "(") + python_repr(kv[0]) + ", " + python_repr(kv[1]) + ")";
            }
            return out + "]";
        }
        case TypeId::Null:
            break;
    }
    return "None";
}

}  // namespace taco::model
