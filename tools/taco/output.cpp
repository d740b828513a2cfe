#include "output.hpp"

#include <charconv>
#include <cmath>
#include <map>

#include <iostream>

#include "commands.hpp"
#include "error_report.hpp"
#include "io/cancel.hpp"
#include "model/time_format.hpp"
#include "paths/path_display.hpp"
#include "taco/errors.hpp"

namespace taco::cli {
namespace {

// Shortest decimal that parses back to the same float (or double).
template <typename T>
std::string shortest(T v) {
    if (std::isnan(v)) return "NaN";
    if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

std::string hex(std::string_view bytes) {
    static const char* digits = "0123456789abcdef";
    std::string out;
    out.reserve(bytes.size() * 2);
    for (unsigned char c : bytes) {
        out += digits[c >> 4];
        out += digits[c & 15];
    }
    return out;
}

// Column labels for JSON objects: repeated names get a numeric suffix.
std::vector<std::string> unique_labels(const DataFrame& df) {
    std::vector<std::string> out;
    std::map<std::string, int> seen;
    for (const auto& c : df.schema()) {
        const int n = seen[c.name]++;
        out.push_back(n == 0 ? c.name : c.name + "_" + std::to_string(n));
    }
    return out;
}

std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

// Display width of UTF-8 text: one column per code point (good enough for metadata).
size_t width(const std::string& s) {
    size_t n = 0;
    for (unsigned char c : s) n += (c & 0xC0) != 0x80;
    return n;
}

std::string shorten(const std::string& s, size_t max) {
    if (width(s) <= max) return s;
    size_t keep = 0, cols = 0;
    while (keep < s.size() && cols < max - 1) {
        ++keep;
        while (keep < s.size() && (static_cast<unsigned char>(s[keep]) & 0xC0) == 0x80) ++keep;
        ++cols;
    }
    return s.substr(0, keep) + "…";
}

}  // namespace

Json value_to_json(const Value& v) {
    if (v.is_null()) return nullptr;
    switch (v.type().id()) {
        case TypeId::Bool:
            return v.as_bool();
        case TypeId::Int32:
        case TypeId::Int64:
            return v.as_int();
        case TypeId::Float32: {
            const float f = static_cast<float>(v.as_double());
            if (!std::isfinite(f)) return nullptr;
            return std::stod(shortest(f));
        }
        case TypeId::Float64:
            return std::isfinite(v.as_double()) ? Json(v.as_double()) : Json(nullptr);
        case TypeId::Timestamp:
            return model::format_iso_utc(v.as_int());
        case TypeId::String:
            return v.as_string();
        case TypeId::Binary:
            return hex(v.as_string());
        case TypeId::List:
        case TypeId::FixedList: {
            Json arr = Json::array();
            for (const auto& item : v.as_list()) arr.push_back(value_to_json(item));
            return arr;
        }
        case TypeId::TimestampTz:
            return model::format_iso_utc(v.as_int());
        case TypeId::Date:
            // Midnight UTC of that day, printed as its date alone.
            return model::format_iso_utc(v.as_int() * 86'400'000'000LL).substr(0, 10);
        case TypeId::Decimal: {
            // A JSON number when a double holds it exactly (15 significant digits), else the
            // exact text as a string: never a silently rounded number.
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

std::string value_to_text(const Value& v) {
    if (v.is_null()) return "null";
    switch (v.type().id()) {
        case TypeId::Float32:
            return shortest(static_cast<float>(v.as_double()));
        case TypeId::Float64:
            return shortest(v.as_double());
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

Json frame_to_json(const DataFrame& df) {
    const std::vector<std::string> labels = unique_labels(df);
    Json rows = Json::array();
    for (size_t r = 0; r < df.rows(); ++r) {
        Json row = Json::object();
        for (size_t c = 0; c < df.columns(); ++c) row[labels[c]] = value_to_json(df.value(r, c));
        rows.push_back(std::move(row));
    }
    return rows;
}

void print_csv_header(std::ostream& out, const std::vector<ColumnType>& columns) {
    for (size_t c = 0; c < columns.size(); ++c) out << (c ? "," : "") << csv_field(columns[c].name);
    out << '\n';
}

void print_csv_header(std::ostream& out, const DataFrame& df) {
    print_csv_header(out, df.schema());
}

void print_csv(std::ostream& out, const DataFrame& df) {
    print_csv_header(out, df);
    print_csv_rows(out, df);
}

void print_json_rows(std::ostream& out, const DataFrame& df, bool first) {
    const std::vector<std::string> labels = unique_labels(df);
    for (size_t r = 0; r < df.rows(); ++r) {
        Json row = Json::object();
        for (size_t c = 0; c < df.columns(); ++c) row[labels[c]] = value_to_json(df.value(r, c));
        if (!first || r > 0) out << ',';
        out << row.dump(-1, ' ', false, Json::error_handler_t::replace);
    }
}

void print_csv_rows(std::ostream& out, const DataFrame& df) {
    for (size_t r = 0; r < df.rows(); ++r) {
        for (size_t c = 0; c < df.columns(); ++c) {
            if (c) out << ',';
            if (!df.is_null(r, c)) out << csv_field(value_to_text(df.value(r, c)));
        }
        out << '\n';
    }
}

void print_table(std::ostream& out, const DataFrame& df, size_t max_cell) {
    const size_t ncol = df.columns();
    std::vector<std::vector<std::string>> cells(df.rows() + 1, std::vector<std::string>(ncol));
    std::vector<size_t> widths(ncol, 0);
    for (size_t c = 0; c < ncol; ++c) {
        cells[0][c] = shorten(df.schema()[c].name, max_cell);
        widths[c] = width(cells[0][c]);
    }
    for (size_t r = 0; r < df.rows(); ++r) {
        for (size_t c = 0; c < ncol; ++c) {
            std::string text = shorten(value_to_text(df.value(r, c)), max_cell);
            for (char& ch : text)
                if (ch == '\n' || ch == '\r' || ch == '\t') ch = ' ';
            widths[c] = std::max(widths[c], width(text));
            cells[r + 1][c] = std::move(text);
        }
    }
    for (size_t r = 0; r < cells.size(); ++r) {
        std::string line;
        for (size_t c = 0; c < ncol; ++c) {
            if (c) line += "  ";
            line += cells[r][c];
            if (c + 1 < ncol) line.append(widths[c] - width(cells[r][c]), ' ');
        }
        out << line << "\n";
        if (r == 0) {
            std::string rule;
            for (size_t c = 0; c < ncol; ++c) rule += (c ? "  " : "") + std::string(widths[c], '-');
            out << rule << "\n";
        }
    }
    out << "(" << df.rows() << " row" << (df.rows() == 1 ? "" : "s") << ")\n";
}

namespace {

// `j` with every string and key made UTF-8 the way messages are (`\xff` for a byte that is not
// UTF-8): a path that is not UTF-8 stays recognisable instead of becoming U+FFFD.
Json escaped_strings(const Json& j) {
    if (j.is_string()) return paths::escape_invalid_utf8(j.get_ref<const std::string&>());
    if (j.is_array()) {
        Json out = Json::array();
        for (const Json& item : j) out.push_back(escaped_strings(item));
        return out;
    }
    if (j.is_object()) {
        Json out = Json::object();
        for (const auto& [key, item] : j.items())
            out[paths::escape_invalid_utf8(key)] = escaped_strings(item);
        return out;
    }
    return j;
}

}  // namespace

void print_json(std::ostream& out, const Json& j) {
    std::string text;
    try {
        text = j.dump();  // strict: throws on a string that is not UTF-8 (a path is bytes)
    } catch (const nlohmann::json::type_error&) {
        text = escaped_strings(j).dump(-1, ' ', false, Json::error_handler_t::replace);
    }
    out << text << "\n";
}

int run_read_command(const std::function<int()>& body) {
    try {
        return body();
    } catch (const NavigationError& e) {
        return report_error(e.what(), e.kind(), kExitUsage);
    } catch (const QueryError& e) {
        return report_error(e.what(), e.kind(),
                            io::cancel_requested() ? kExitInterrupted : kExitUsage);
    }
}

std::vector<std::string> split_rowpath(std::string_view rowpath) {
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= rowpath.size()) {
        const size_t slash = rowpath.find('/', start);
        const size_t end = slash == std::string_view::npos ? rowpath.size() : slash;
        if (end > start) out.emplace_back(rowpath.substr(start, end - start));
        if (slash == std::string_view::npos) break;
        start = slash + 1;
    }
    return out;
}

}  // namespace taco::cli
