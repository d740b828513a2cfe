#include "query/sql_compose.hpp"

#include <cctype>
#include <cstring>
#include <string_view>
#include <vector>

#include "taco/errors.hpp"

namespace taco::query {
namespace {

// Just enough of DuckDB's lexer to find statement boundaries and the leading keywords: comments,
// string literals, quoted identifiers and dollar-quoted strings are skipped as single tokens.
struct Token {
    enum Kind { Word, QuotedIdent, Literal, Punct } kind;
    size_t begin;
    size_t end;
};

bool word_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
           static_cast<unsigned char>(c) >= 0x80;
}

// Position after the closing `quote`, doubling it as its escape (and backslash too for E'...').
size_t skip_quoted(std::string_view s, size_t i, char quote, bool backslash) {
    for (++i; i < s.size(); ++i) {
        if (backslash && s[i] == '\\') {
            ++i;
        } else if (s[i] == quote) {
            if (i + 1 < s.size() && s[i + 1] == quote) {
                ++i;
            } else {
                return i + 1;
            }
        }
    }
    return s.size();  // unterminated: DuckDB reports it
}

std::vector<Token> tokenize(std::string_view s) {
    std::vector<Token> out;
    size_t i = 0;
    while (i < s.size()) {
        const char c = s[i];
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
        } else if (c == '-' && i + 1 < s.size() && s[i + 1] == '-') {
            while (i < s.size() && s[i] != '\n') ++i;
        } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
            const size_t close = s.find("*/", i + 2);
            i = close == std::string_view::npos ? s.size() : close + 2;
        } else if (c == '\'') {
            const size_t end = skip_quoted(s, i, '\'', false);
            out.push_back({Token::Literal, i, end});
            i = end;
        } else if (c == '"') {
            const size_t end = skip_quoted(s, i, '"', false);
            out.push_back({Token::QuotedIdent, i, end});
            i = end;
        } else if (c == '$') {
            // $tag$ ... $tag$ (the tag may be empty); a lone $ (parameter $1) is punctuation.
            size_t j = i + 1;
            const bool parameter = j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]));
            while (!parameter && j < s.size() && word_char(s[j])) ++j;
            if (!parameter && j < s.size() && s[j] == '$') {
                const std::string_view tag = s.substr(i, j - i + 1);
                const size_t close = s.find(tag, j + 1);
                const size_t end = close == std::string_view::npos ? s.size() : close + tag.size();
                out.push_back({Token::Literal, i, end});
                i = end;
            } else {
                out.push_back({Token::Punct, i, i + 1});
                ++i;
            }
        } else if (word_char(c)) {
            size_t j = i;
            while (j < s.size() && word_char(s[j])) ++j;
            if ((j - i == 1) && (c == 'E' || c == 'e') && j < s.size() && s[j] == '\'') {
                const size_t end = skip_quoted(s, j, '\'', true);
                out.push_back({Token::Literal, i, end});
                i = end;
            } else {
                out.push_back({Token::Word, i, j});
                i = j;
            }
        } else {
            out.push_back({Token::Punct, i, i + 1});
            ++i;
        }
    }
    return out;
}

bool is_word(std::string_view s, const Token& t, const char* keyword) {
    if (t.kind != Token::Word || t.end - t.begin != std::strlen(keyword)) return false;
    for (size_t i = 0; i < t.end - t.begin; ++i) {
        if (std::toupper(static_cast<unsigned char>(s[t.begin + i])) != keyword[i]) return false;
    }
    return true;
}

bool is_punct(std::string_view s, const Token& t, char c) {
    return t.kind == Token::Punct && s[t.begin] == c;
}

bool names_data(std::string_view s, const Token& t) {
    if (t.kind == Token::QuotedIdent) return s.substr(t.begin, t.end - t.begin) == "\"data\"";
    return is_word(s, t, "DATA");
}

// Index just after the parenthesised group opening at tokens[i].
size_t skip_group(std::string_view s, const std::vector<Token>& tokens, size_t i) {
    int depth = 0;
    for (; i < tokens.size(); ++i) {
        if (is_punct(s, tokens[i], '(')) ++depth;
        if (is_punct(s, tokens[i], ')') && --depth == 0) return i + 1;
    }
    return tokens.size();
}

// Whether the WITH list starting at tokens[i] (just after WITH [RECURSIVE]) defines `data`:
// name [(columns)] AS [NOT] [MATERIALIZED] (body) [, ...]
bool with_list_defines_data(std::string_view s, const std::vector<Token>& tokens, size_t i) {
    while (i < tokens.size()) {
        if (names_data(s, tokens[i])) return true;
        ++i;
        if (i < tokens.size() && is_punct(s, tokens[i], '(')) i = skip_group(s, tokens, i);
        if (i >= tokens.size() || !is_word(s, tokens[i], "AS")) return false;
        ++i;
        while (i < tokens.size() &&
               (is_word(s, tokens[i], "NOT") || is_word(s, tokens[i], "MATERIALIZED")))
            ++i;
        if (i >= tokens.size() || !is_punct(s, tokens[i], '(')) return false;
        i = skip_group(s, tokens, i);
        if (i >= tokens.size() || !is_punct(s, tokens[i], ',')) return false;
        ++i;
    }
    return false;
}

// Words that open a query, so `EXPLAIN (SELECT ...)` is told from `EXPLAIN (FORMAT json) ...`.
bool starts_query(std::string_view s, const Token& t) {
    return is_word(s, t, "SELECT") || is_word(s, t, "WITH") || is_word(s, t, "FROM") ||
           is_word(s, t, "VALUES") || is_word(s, t, "TABLE");
}

// DuckDB's statements that are not queries: sql() cannot run them inside its WITH.
bool is_statement_keyword(std::string_view s, const Token& t) {
    static const char* const kStatements[] = {
        "PRAGMA",  "SET",     "RESET",      "CALL",       "INSTALL", "LOAD",
        "CREATE",  "DROP",    "ALTER",      "INSERT",     "UPDATE",  "DELETE",
        "COPY",    "ATTACH",  "DETACH",     "USE",        "EXPORT",  "IMPORT",
        "BEGIN",   "COMMIT",  "ROLLBACK",   "CHECKPOINT", "VACUUM",  "ANALYZE",
        "PREPARE", "EXECUTE", "DEALLOCATE", "TRUNCATE",   "MERGE",   "UPSERT"};
    for (const char* k : kStatements)
        if (is_word(s, t, k)) return true;
    return false;
}

}  // namespace

bool is_explain(const std::string& sql) {
    const std::vector<Token> tokens = tokenize(sql);
    return !tokens.empty() && is_word(sql, tokens.front(), "EXPLAIN");
}

bool names_flat_view(const std::string& query) {
    for (const Token& t : tokenize(query)) {
        std::string_view text(query.data() + t.begin, t.end - t.begin);
        if (t.kind == Token::QuotedIdent && text.size() >= 2)
            text = text.substr(1, text.size() - 2);
        else if (t.kind != Token::Word)
            continue;
        if (text.size() < 2 || (text[0] != 'l' && text[0] != 'L')) continue;
        if (text.find_first_not_of("0123456789", 1) == std::string_view::npos) return true;
    }
    return false;
}

std::string bind_data_view(const std::string& view_sql, const std::string& query,
                           const std::string& extra_ctes) {
    std::vector<Token> tokens = tokenize(query);
    // Drop trailing semicolons; any other top-level one separates statements.
    while (!tokens.empty() && is_punct(query, tokens.back(), ';')) tokens.pop_back();
    if (tokens.empty()) throw QueryError("sql(): the query is empty");
    for (const Token& t : tokens) {
        if (is_punct(query, t, ';')) {
            throw QueryError(
                "sql(): expected one SQL statement, found several separated by ';' "
                "at character " +
                std::to_string(t.begin + 1));
        }
    }
    // Everything up to the last token's end, so trailing comments go too: a `-- comment` there
    // would swallow whatever follows when this text is itself wrapped by the next sql(). With no
    // trailing comment anywhere, the parts can be joined on one line, and DuckDB's error
    // positions ("LINE 1: ...") still match the user's own query.
    const std::string body = query.substr(0, tokens.back().end);
    const std::string data_cte =
        "data AS (" + view_sql + ")" + (extra_ctes.empty() ? "" : ", " + extra_ctes);

    const Token& first = tokens.front();
    if (is_word(query, first, "EXPLAIN")) {
        // EXPLAIN [ANALYZE] [(options)] statement: the statement is bound like any other and
        // the EXPLAIN stays outside it (DuckDB takes no EXPLAIN inside a WITH or sub-query).
        size_t next = 1;
        if (next < tokens.size() && is_word(query, tokens[next], "ANALYZE")) ++next;
        if (next + 1 < tokens.size() && is_punct(query, tokens[next], '(') &&
            tokens[next + 1].kind == Token::Word && !starts_query(query, tokens[next + 1]))
            next = skip_group(query, tokens, next);
        if (next >= tokens.size())
            throw QueryError(
                "sql(): EXPLAIN needs a statement to explain, e.g. EXPLAIN SELECT "
                "* FROM data");
        if (is_word(query, tokens[next], "EXPLAIN"))
            throw QueryError("sql(): EXPLAIN cannot explain another EXPLAIN");
        return body.substr(0, tokens[next].begin) +
               bind_data_view(view_sql, body.substr(tokens[next].begin), extra_ctes);
    }
    if (is_word(query, first, "WITH")) {
        size_t next = 1;
        if (next < tokens.size() && is_word(query, tokens[next], "RECURSIVE")) ++next;
        if (with_list_defines_data(query, tokens, next)) return body;
        const size_t split = next < tokens.size() ? tokens[next].begin : body.size();
        return body.substr(0, split) + data_cte + ", " + body.substr(split);
    }
    if (is_word(query, first, "DESCRIBE") || is_word(query, first, "SUMMARIZE") ||
        is_word(query, first, "SHOW")) {
        return "WITH " + data_cte + " SELECT * FROM (" + body + ")";
    }
    // A statement that is no query (PRAGMA, SET, CALL, ...): wrapped in a WITH, DuckDB would
    // only say "syntax error at or near". Other words (a misspelt SELECT) get DuckDB's own error.
    if (is_statement_keyword(query, first)) {
        std::string word = query.substr(first.begin, first.end - first.begin);
        for (char& c : word) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        throw QueryError(
            "sql() runs a query (SELECT, FROM, WITH, VALUES, TABLE, DESCRIBE, "
            "SUMMARIZE, SHOW, EXPLAIN), not a " +
            word + " statement (DESCRIBE data, or DESCRIBE l1, lists a view's columns)");
    }
    return "WITH " + data_cte + " " + body;
}

}  // namespace taco::query
