#include "text/row_text.hpp"

#include <charconv>
#include <cmath>
#include <map>
#include <utility>

#include "model/time_format.hpp"
#include "text/value_text.hpp"

namespace taco::cli {
namespace {

// How value_to_json's text is printed for a row: compact, UTF-8 as is, bytes that are not
// UTF-8 replaced (the JSON stays valid whatever the metadata holds).
std::string dump(const Json& j) {
    return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

void append_int(std::string& out, int64_t v) {
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}

// A JSON number for a finite double, in the text nlohmann's dump gives it (its own shortest
// round-trip form, e.g. "1.0", "1e+20"): the same function dump calls.
void append_json_double(std::string& out, double v) {
    if (!std::isfinite(v)) {
        out += "null";
        return;
    }
    char buf[64];
    const char* end = nlohmann::detail::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, static_cast<size_t>(end - buf));
}

// Text that JSON takes between quotes as it is: printable ASCII without '"' or '\'. Anything
// else (escapes, UTF-8, bytes that are not UTF-8) is left to nlohmann's serializer.
bool plain_json_text(std::string_view s) {
    for (unsigned char c : s) {
        if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') return false;
    }
    return true;
}

void append_json_string(std::string& out, std::string_view s) {
    if (plain_json_text(s)) {
        out += '"';
        out.append(s);
        out += '"';
    } else {
        out += dump(Json(std::string(s)));
    }
}

}  // namespace

std::vector<std::string> json_labels(const DataFrame& df) {
    std::vector<std::string> out;
    std::map<std::string, int> seen;
    for (const auto& c : df.schema()) {
        const int n = seen[c.name]++;
        out.push_back(n == 0 ? c.name : c.name + "_" + std::to_string(n));
    }
    return out;
}

RowText::RowText(const DataFrame& df) : df_(df) {
    // The column types written from the typed getters; any other (lists, structs, maps,
    // decimals, the NULL type) goes through its Value.
    static constexpr std::pair<TypeId, Kind> kFast[] = {
        {TypeId::Int32, Kind::Int},
        {TypeId::Int64, Kind::Int},
        {TypeId::Bool, Kind::Bool},
        {TypeId::Float32, Kind::Float32},
        {TypeId::Float64, Kind::Float64},
        {TypeId::Timestamp, Kind::Timestamp},
        {TypeId::TimestampTz, Kind::Timestamp},
        {TypeId::Date, Kind::Date},
        {TypeId::String, Kind::Text},
        {TypeId::Binary, Kind::Bytes},
    };
    for (const ColumnType& c : df.schema()) {
        Kind kind = Kind::Other;
        for (const auto& [id, fast] : kFast)
            if (c.type.id() == id) kind = fast;
        kinds_.push_back(kind);
    }
    for (const std::string& label : json_labels(df)) json_keys_.push_back(dump(Json(label)) + ":");
}

void RowText::append_csv(std::string& out, size_t row) const {
    for (size_t c = 0; c < kinds_.size(); ++c) {
        if (c) out += ',';
        if (!df_.is_null(row, c)) append_csv_cell(out, row, c);
    }
    out += '\n';
}

void RowText::append_json(std::string& out, size_t row) const {
    out += '{';
    for (size_t c = 0; c < kinds_.size(); ++c) {
        if (c) out += ',';
        out += json_keys_[c];
        if (df_.is_null(row, c)) {
            out += "null";
        } else {
            append_json_cell(out, row, c);
        }
    }
    out += '}';
}

void RowText::append_text(std::string& out, size_t row, size_t col) const {
    if (df_.is_null(row, col)) {
        out += "null";
        return;
    }
    switch (kinds_[col]) {
        case Kind::Int:
            append_int(out, df_.get_int(row, col));
            return;
        case Kind::Bool:
            out += df_.get_bool(row, col) ? "true" : "false";
            return;
        case Kind::Float32:
            out += shortest_text(static_cast<float>(df_.get_double(row, col)));
            return;
        case Kind::Float64:
            out += shortest_text(df_.get_double(row, col));
            return;
        case Kind::Timestamp:
            out += model::format_iso_utc(df_.get_int(row, col));
            return;
        case Kind::Date:
            out += model::format_iso_date(df_.get_int(row, col));
            return;
        case Kind::Text:
            out.append(df_.get_string(row, col));
            return;
        case Kind::Bytes:
            out += hex_text(df_.get_string(row, col));
            return;
        case Kind::Other:
            out += value_to_text(df_.value(row, col));
            return;
    }
}

void RowText::append_csv_cell(std::string& out, size_t row, size_t col) const {
    // Only text and the JSON text of nested values can hold a comma, a quote or a line break:
    // numbers, booleans, timestamps, dates and hex never need quoting.
    switch (kinds_[col]) {
        case Kind::Text:
            append_csv_field(out, df_.get_string(row, col));
            return;
        case Kind::Other:
            append_csv_field(out, value_to_text(df_.value(row, col)));
            return;
        default:
            append_text(out, row, col);
            return;
    }
}

void RowText::append_json_cell(std::string& out, size_t row, size_t col) const {
    switch (kinds_[col]) {
        case Kind::Int:
        case Kind::Bool:  // the same text as in a table: a JSON number or true/false
            append_text(out, row, col);
            return;
        case Kind::Timestamp:
        case Kind::Date:
        case Kind::Bytes:  // ASCII digits, dashes, colons, letters: a JSON string as they are
            out += '"';
            append_text(out, row, col);
            out += '"';
            return;
        case Kind::Float32:
            append_json_double(
                out, float32_as_json_number(static_cast<float>(df_.get_double(row, col))));
            return;
        case Kind::Float64:
            append_json_double(out, df_.get_double(row, col));
            return;
        case Kind::Text:
            append_json_string(out, df_.get_string(row, col));
            return;
        case Kind::Other:
            append_value_json(out, df_.value(row, col));
            return;
    }
}

}  // namespace taco::cli
