#include "query/error_text.hpp"

#include "model/shorten.hpp"
#include "paths/path_display.hpp"
#include "taco/errors.hpp"

namespace taco::query {
namespace {

// Longest DuckDB message shown whole (a 100 KB literal in a query stays out of the terminal).
constexpr size_t kMaxMessage = 2000;

void replace_all(std::string& s, const std::string& from, const std::string& to, bool& hit) {
    if (from.empty()) return;
    for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) {
        s.replace(at, from.size(), to);
        hit = true;
    }
}

void name_level_files(const DatasetContext& ctx, std::string& text, bool& hit) {
    if (ctx.concat) {
        for (const ConcatPart& part : ctx.concat->parts) name_level_files(*part.ctx, text, hit);
        return;
    }
    for (size_t i = 0; i < ctx.level_files.size() && i < ctx.source.levels.size(); ++i) {
        const std::string shown = ctx.source.format == ContainerFormat::Zip
                                      ? ctx.source.path.string() + ":" + ctx.source.levels[i].name
                                      : ctx.level_files[i];
        replace_all(text, ctx.level_files[i], shown, hit);
    }
}

// Whether `statement` contains `path` as a whole descriptor path (not /proc/self/fd/1 inside
// /proc/self/fd/12).
bool spells_out(std::string_view statement, std::string_view path) {
    for (size_t at = statement.find(path); at != std::string_view::npos;
         at = statement.find(path, at + 1)) {
        const size_t end = at + path.size();
        if (end == statement.size() || statement[end] < '0' || statement[end] > '9') return true;
    }
    return false;
}

}  // namespace

std::string name_internal_paths(const DatasetContext& ctx, std::string text, bool* replaced,
                                std::string_view statement) {
    bool hit = false;
    name_level_files(ctx, text, hit);
    // A path that is not UTF-8 is read through /proc/self/fd/N too: named as the user gave it.
    text = paths::name_anchored_paths(text);
    // Any other descriptor path (a __meta__ copied into memory) is ours too.
    const std::string fd_prefix = "/proc/self/fd/";
    for (size_t at = text.find(fd_prefix); at != std::string::npos; at = text.find(fd_prefix, at)) {
        size_t end = at + fd_prefix.size();
        while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
        const std::string_view path = std::string_view(text).substr(at, end - at);
        if (end > at + fd_prefix.size() && spells_out(statement, path)) {
            at = end;
            continue;
        }
        text.replace(at, end - at, "<metadata table in memory>");
        hit = true;
    }
    if (replaced) *replaced = hit;
    return text;
}

DuckErrorText user_facing_duckdb_error(const DatasetContext& ctx, const std::string& message,
                                       std::string_view statement) {
    DuckErrorText out;
    out.text = message;
    // DuckDB appends "\n\nLINE 1: <statement>\n        ^": the statement is our rewrite.
    const size_t line = out.text.find("\nLINE ");
    if (line != std::string::npos) out.text.erase(line);
    while (!out.text.empty() && (out.text.back() == '\n' || out.text.back() == ' '))
        out.text.pop_back();
    out.text = name_internal_paths(ctx, std::move(out.text), &out.damaged, statement);
    out.text = shorten(out.text, kMaxMessage);
    return out;
}

void rethrow_query(const DatasetContext& ctx, const QueryError& e, const std::string& statement) {
    if (ctx.timed_out) {
        throw QueryError(ctx.source.path.string() + ": the query did not finish within the " +
                         "timeout of " + std::to_string(ctx.query_timeout) +
                         " s and was interrupted");
    }
    const DuckErrorText msg = user_facing_duckdb_error(ctx, e.what(), statement);
    if (msg.damaged) {
        throw FormatError(ctx.source.path.string() + ": cannot read the metadata: " + msg.text);
    }
    throw QueryError(ctx.source.path.string() + ": query failed: " + msg.text);
}

}  // namespace taco::query
