#include "output.hpp"

#include <iostream>

#include "commands.hpp"
#include "error_report.hpp"
#include "io/cancel.hpp"
#include "paths/path_display.hpp"
#include "taco/errors.hpp"
#include "text/row_text.hpp"

namespace taco::cli {
namespace {

// Display width of UTF-8 text: one column per code point (good enough for metadata).
size_t width(const std::string& s) {
    size_t n = 0;
    for (unsigned char c : s) n += (c & 0xC0) != 0x80;
    return n;
}

// Cuts `s` to `max` display columns, the last one "…".
void shorten(std::string& s, size_t max) {
    if (width(s) <= max) return;
    size_t keep = 0, cols = 0;
    while (keep < s.size() && cols < max - 1) {
        ++keep;
        while (keep < s.size() && (static_cast<unsigned char>(s[keep]) & 0xC0) == 0x80) ++keep;
        ++cols;
    }
    s.resize(keep);
    s += "…";
}

}  // namespace

void print_csv_header(std::ostream& out, const std::vector<ColumnType>& columns) {
    std::string line;
    for (size_t c = 0; c < columns.size(); ++c) {
        if (c) line += ',';
        append_csv_field(line, columns[c].name);
    }
    out << line << '\n';
}

void print_csv_header(std::ostream& out, const DataFrame& df) {
    print_csv_header(out, df.schema());
}

void print_csv(std::ostream& out, const DataFrame& df) {
    print_csv_header(out, df);
    print_csv_rows(out, df);
}

namespace {

// Rows of `df` made into text by `append_row` and written a few hundred kilobytes at a time.
template <typename AppendRow>
void write_rows(std::ostream& out, const DataFrame& df, AppendRow append_row) {
    constexpr size_t kFlushBytes = 256 * 1024;
    std::string text;
    text.reserve(kFlushBytes + 4096);
    for (size_t r = 0; r < df.rows(); ++r) {
        append_row(text, r);
        if (text.size() >= kFlushBytes) {
            out.write(text.data(), static_cast<std::streamsize>(text.size()));
            text.clear();
        }
    }
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

}  // namespace

void print_json_rows(std::ostream& out, const DataFrame& df, bool first) {
    const RowText rows(df);
    write_rows(out, df, [&](std::string& text, size_t r) {
        if (!first || r > 0) text += ',';
        rows.append_json(text, r);
    });
}

void print_json_frame(std::ostream& out, const DataFrame& df) {
    out << '[';
    print_json_rows(out, df, true);
    out << "]\n";
}

void print_csv_rows(std::ostream& out, const DataFrame& df) {
    const RowText rows(df);
    write_rows(out, df, [&](std::string& text, size_t r) { rows.append_csv(text, r); });
}

void print_table(std::ostream& out, const DataFrame& df, size_t max_cell) {
    // Two passes over the frame, the cells' text made twice: the widths first, then the lines.
    // Holding every cell's text between the passes took ~1 KB per row of 12 columns (531 MB for
    // 500,000 rows) on top of the frame.
    const size_t ncol = df.columns();
    const RowText rows(df);
    std::string text;
    auto cell = [&](size_t r, size_t c) -> const std::string& {
        text.clear();
        rows.append_text(text, r, c);
        shorten(text, max_cell);
        for (char& ch : text)
            if (ch == '\n' || ch == '\r' || ch == '\t') ch = ' ';
        return text;
    };
    std::vector<std::string> header(ncol);
    std::vector<size_t> widths(ncol, 0);
    for (size_t c = 0; c < ncol; ++c) {
        header[c] = df.schema()[c].name;
        shorten(header[c], max_cell);
        widths[c] = width(header[c]);
    }
    for (size_t r = 0; r < df.rows(); ++r)
        for (size_t c = 0; c < ncol; ++c) widths[c] = std::max(widths[c], width(cell(r, c)));

    auto append_line = [&](std::string& lines, auto cell_text) {
        for (size_t c = 0; c < ncol; ++c) {
            if (c) lines += "  ";
            const std::string& t = cell_text(c);
            lines += t;
            if (c + 1 < ncol) lines.append(widths[c] - width(t), ' ');
        }
        lines += '\n';
    };
    std::string head;
    append_line(head, [&](size_t c) -> const std::string& { return header[c]; });
    for (size_t c = 0; c < ncol; ++c) {
        if (c) head += "  ";
        head.append(widths[c], '-');
    }
    out << head << '\n';
    write_rows(out, df, [&](std::string& lines, size_t r) {
        append_line(lines, [&](size_t c) -> const std::string& { return cell(r, c); });
    });
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
        return report_failure(e, kExitUsage);
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
