#include "toolbox/directory_source.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "io/trace.hpp"
#include "metadata/duckdb_session.hpp"
#include "metadata/result_table.hpp"
#include "taco/errors.hpp"

namespace fs = std::filesystem;

namespace taco::toolbox {
namespace {

struct Node {
    std::string id;
    std::string rel;  // relative path, '/' separated
    fs::path path;
    bool folder = false;
    std::vector<Node> children;
};

std::vector<Node> scan(const fs::path& dir, const std::string& rel_prefix) {
    std::vector<Node> nodes;
    std::error_code ec;
    fs::directory_iterator it(dir, ec);
    if (ec) throw IoError("cannot list directory " + dir.string() + ": " + ec.message());
    for (const auto& entry : it) {
        std::string name = entry.path().filename().string();
        if (name.empty() || name[0] == '.') continue;
        Node n;
        n.id = name;
        n.rel = rel_prefix + name;
        n.path = entry.path();
        // is_directory / is_regular_file use the type the directory listing gave (d_type) and
        // stat only symlinks, which they follow: one syscall saved per file.
        bool is_dir = entry.is_directory(ec);
        bool is_file = !ec && !is_dir && entry.is_regular_file(ec);
        if (ec) throw IoError("cannot stat " + entry.path().string() + ": " + ec.message());
        if (is_dir) {
            n.folder = true;
            n.children = scan(entry.path(), n.rel + "/");
            if (n.children.empty()) {
                throw IoError("directory " + entry.path().string() +
                              " has no files: a FOLDER sample needs at least one child");
            }
        } else if (!is_file) {
            throw IoError(entry.path().string() + " is neither a regular file nor a directory");
        }
        nodes.push_back(std::move(n));
    }
    std::sort(nodes.begin(), nodes.end(), [](const Node& a, const Node& b) { return a.id < b.id; });
    return nodes;
}

struct Table {
    std::vector<ColumnType> columns;                           // without the key
    std::unordered_map<std::string, std::vector<Value>> rows;  // key -> values
};

Table read_table(const fs::path& file, const std::string& key) {
    std::error_code ec;
    if (!fs::is_regular_file(file, ec)) throw IoError("metadata table not found: " + file.string());
    metadata::DuckSession db(1);
    std::shared_ptr<const metadata::ResultTable> result;
    try {
        // DuckDB picks the reader from the file (CSV, Parquet, JSON); other types without a TACO
        // equivalent are cast by ResultTable (small ints, DECIMAL, zoned timestamps, ...).
        // DATE columns become timestamps (midnight UTC): a date in a metadata table is an
        // acquisition day, and TACO's time type is timestamp[us].
        const std::string source = metadata::quote_literal(file.string());
        auto dates =
            metadata::ResultTable::fetch(db, "SELECT column_name FROM (DESCRIBE SELECT * FROM " +
                                                 source + ") WHERE column_type = 'DATE'");
        std::string replace;
        for (size_t r = 0; r < dates->rows(); ++r) {
            std::string col = metadata::quote_identifier(dates->get_string(r, 0));
            if (!replace.empty()) replace += ", ";
            replace += "CAST(" + col + " AS TIMESTAMP) AS " + col;
        }
        result = metadata::ResultTable::fetch(
            db, replace.empty() ? "SELECT * FROM " + source
                                : "SELECT * REPLACE (" + replace + ") FROM " + source);
    } catch (const QueryError& e) {
        throw IoError("cannot read metadata table " + file.string() + ": " + e.what());
    }
    struct {
        std::vector<ColumnType> columns;
        std::vector<std::vector<Value>> rows;
    } rows;
    rows.columns = result->schema();
    rows.rows.resize(result->rows());
    for (size_t r = 0; r < result->rows(); ++r) {
        rows.rows[r].reserve(result->columns());
        for (size_t c = 0; c < result->columns(); ++c)
            rows.rows[r].push_back(result->get_value(r, c));
    }
    size_t key_index = rows.columns.size();
    for (size_t c = 0; c < rows.columns.size(); ++c)
        if (rows.columns[c].name == key) key_index = c;
    if (key_index == rows.columns.size()) {
        std::string names;
        for (const auto& c : rows.columns) names += (names.empty() ? "" : ", ") + c.name;
        throw SchemaError("metadata table " + file.string() + " has no key column '" + key +
                          "' (columns: " + names + ")");
    }
    Table t;
    for (size_t c = 0; c < rows.columns.size(); ++c) {
        if (c == key_index) continue;
        try {
            validate_extension_key(rows.columns[c].name);
        } catch (const SchemaError& e) {
            throw SchemaError("metadata table " + file.string() + ": " + e.what());
        }
        t.columns.push_back(rows.columns[c]);
    }
    for (size_t r = 0; r < rows.rows.size(); ++r) {
        auto& row = rows.rows[r];
        if (row[key_index].is_null() || row[key_index].type().id() != TypeId::String) {
            throw SchemaError("metadata table " + file.string() + " row " + std::to_string(r + 1) +
                              ": key column '" + key +
                              "' must hold the sample's relative path as text");
        }
        std::string k = row[key_index].as_string();
        while (!k.empty() && k.back() == '/') k.pop_back();
        std::vector<Value> values;
        for (size_t c = 0; c < row.size(); ++c)
            if (c != key_index) values.push_back(std::move(row[c]));
        if (!t.rows.emplace(k, std::move(values)).second) {
            throw SchemaError("metadata table " + file.string() + ": sample path '" + k +
                              "' appears twice");
        }
    }
    return t;
}

// Columns with at least one value among the samples of each level.
void collect_level_columns(const std::vector<Node>& nodes, size_t level, const Table& table,
                           std::vector<std::set<size_t>>& used) {
    if (used.size() <= level) used.resize(level + 1);
    for (const auto& n : nodes) {
        auto it = table.rows.find(n.rel);
        if (it != table.rows.end()) {
            for (size_t c = 0; c < it->second.size(); ++c)
                if (!it->second[c].is_null()) used[level].insert(c);
        }
        if (n.folder) collect_level_columns(n.children, level + 1, table, used);
    }
}

Tortilla build(const std::vector<Node>& nodes, size_t level, const Table* table,
               const std::vector<std::set<size_t>>& used, const DirectoryOptions& options) {
    std::vector<Sample> samples;
    samples.reserve(nodes.size());
    for (const auto& n : nodes) {
        Sample s = n.folder
                       ? Sample::folder(n.id, build(n.children, level + 1, table, used, options))
                       : Sample::file(n.id, n.path);
        if (table && level < used.size()) {
            auto it = table->rows.find(n.rel);
            for (size_t c : used[level]) {
                const auto& col = table->columns[c];
                s.set(col.name, it != table->rows.end() ? it->second[c] : Value::null(col.type));
            }
        }
        samples.push_back(std::move(s));
    }
    TortillaOptions topts;
    topts.pad_to = options.pad_to;
    return Tortilla(std::move(samples), topts);
}

void check_all_keys_used(const Table& table, const std::vector<Node>& nodes, const fs::path& file) {
    std::set<std::string> known;
    std::vector<const std::vector<Node>*> stack{&nodes};
    while (!stack.empty()) {
        auto* list = stack.back();
        stack.pop_back();
        for (const auto& n : *list) {
            known.insert(n.rel);
            if (n.folder) stack.push_back(&n.children);
        }
    }
    std::vector<std::string> unknown;
    for (const auto& [k, v] : table.rows)
        if (!known.count(k)) unknown.push_back(k);
    if (unknown.empty()) return;
    std::sort(unknown.begin(), unknown.end());
    std::string list;
    for (size_t i = 0; i < std::min<size_t>(unknown.size(), 5); ++i)
        list += (i ? ", '" : "'") + unknown[i] + "'";
    if (unknown.size() > 5) list += ", ... (" + std::to_string(unknown.size() - 5) + " more)";
    throw SchemaError("metadata table " + file.string() +
                      " has rows for paths that are not in the input directory: " + list);
}

}  // namespace

Tortilla tortilla_from_directory(const fs::path& dir, const DirectoryOptions& options) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) throw IoError("input directory not found: " + dir.string());
    io::TraceScope trace("create: scan + metadata table");
    std::vector<Node> nodes = scan(fs::absolute(dir), "");
    if (nodes.empty()) throw IoError("input directory " + dir.string() + " has no files");
    std::optional<Table> table;
    std::vector<std::set<size_t>> used;
    if (options.metadata_table) {
        table = read_table(*options.metadata_table, options.key_column);
        check_all_keys_used(*table, nodes, *options.metadata_table);
        collect_level_columns(nodes, 0, *table, used);
    }
    return build(nodes, 0, table ? &*table : nullptr, used, options);
}

}  // namespace taco::toolbox
