// Parquet schemas for validation, read with DuckDB's parquet_schema() for many files at once and
// turned into DuckDB type text ("BIGINT", "FLOAT[][]", "STRUCT(a VARCHAR)") per top-level column.
#include <unordered_map>

#include "format/parquet_footer.hpp"
#include "taco/errors.hpp"
#include "validate/validate_tables.hpp"

namespace taco::format {
namespace {

struct SchemaNode {
    std::string name;
    std::string physical;
    int64_t children = 0;
    std::string converted;
    std::string logical;
    std::string duckdb;
};

std::string text_of(const metadata::ResultTable& t, size_t row, size_t col) {
    return t.is_null(row, col) ? std::string() : std::string(t.get_string(row, col));
}

// The type of the subtree starting at nodes[i]; advances i past it.
std::string subtree_type(const std::vector<SchemaNode>& nodes, size_t& i) {
    if (i >= nodes.size()) return "?";
    const SchemaNode& node = nodes[i++];
    if (node.children <= 0) {
        return !node.duckdb.empty() ? node.duckdb : !node.physical.empty() ? node.physical : "?";
    }
    const bool list = node.converted == "LIST" || node.logical.rfind("ListType", 0) == 0;
    const bool map = node.converted == "MAP" || node.logical.rfind("MapType", 0) == 0;
    if ((list || map) && node.children == 1 && i < nodes.size()) {
        // 3-level encoding: OPTIONAL group (LIST) / REPEATED group / element(s).
        const SchemaNode& repeated = nodes[i];
        if (repeated.children > 0) {
            ++i;
            if (map && repeated.children == 2) {
                std::string key = subtree_type(nodes, i);
                std::string value = subtree_type(nodes, i);
                return "MAP(" + key + ", " + value + ")";
            }
            std::string element = subtree_type(nodes, i);
            for (int64_t k = 1; k < repeated.children; ++k) subtree_type(nodes, i);
            return element + "[]";
        }
        return subtree_type(nodes, i) + "[]";  // 2-level legacy list
    }
    std::string out = "STRUCT(";
    for (int64_t k = 0; k < node.children; ++k) {
        const std::string name = i < nodes.size() ? nodes[i].name : "?";
        out += (k ? ", " : "") + name + " " + subtree_type(nodes, i);
    }
    return out + ")";
}

ParquetColumns top_level_columns(const std::vector<SchemaNode>& nodes) {
    ParquetColumns out;
    if (nodes.empty()) return out;
    size_t i = 1;  // nodes[0] is the root "schema" group
    for (int64_t k = 0; k < nodes[0].children && i < nodes.size(); ++k) {
        std::string name = nodes[i].name;
        out.emplace_back(std::move(name), subtree_type(nodes, i));
    }
    return out;
}

std::string file_list(const std::vector<std::string>& files) {
    std::string out = "[";
    for (size_t i = 0; i < files.size(); ++i) {
        out += (i ? ", " : "") + metadata::quote_literal(files[i]);
    }
    return out + "]";
}

std::vector<std::optional<ParquetColumns>> query_schemas(metadata::DuckSession& db,
                                                         const std::vector<std::string>& files) {
    auto t = metadata::ResultTable::fetch(
        db,
        "SELECT file_name, name, type, num_children, converted_type, logical_type, duckdb_type "
        "FROM parquet_schema(" +
            file_list(files) + ")");
    std::unordered_map<std::string, size_t> index;
    for (size_t i = 0; i < files.size(); ++i) index.emplace(files[i], i);
    std::vector<std::vector<SchemaNode>> nodes(files.size());
    for (size_t r = 0; r < t->rows(); ++r) {
        const auto it = index.find(text_of(*t, r, 0));
        if (it == index.end()) continue;
        SchemaNode n;
        n.name = text_of(*t, r, 1);
        n.physical = text_of(*t, r, 2);
        n.children = t->is_null(r, 3) ? 0 : t->get_int(r, 3);
        n.converted = text_of(*t, r, 4);
        n.logical = text_of(*t, r, 5);
        n.duckdb = text_of(*t, r, 6);
        nodes[it->second].push_back(std::move(n));
    }
    std::vector<std::optional<ParquetColumns>> out;
    for (const auto& n : nodes) out.emplace_back(top_level_columns(n));
    return out;
}

}  // namespace

namespace {

// query_schemas, falling back to one file at a time: one unreadable file fails a whole batch.
std::vector<std::optional<ParquetColumns>> schemas_of(metadata::DuckSession& db,
                                                      const std::vector<std::string>& files) {
    try {
        return query_schemas(db, files);
    } catch (const QueryError&) {
        if (files.size() == 1) return {std::nullopt};
    }
    std::vector<std::optional<ParquetColumns>> out;
    for (const auto& f : files) {
        try {
            out.push_back(query_schemas(db, {f})[0]);
        } catch (const QueryError&) {
            out.emplace_back(std::nullopt);
        }
    }
    return out;
}

}  // namespace

std::vector<std::optional<ParquetColumns>> parquet_columns(metadata::DuckSession& db,
                                                           const std::vector<std::string>& files) {
    if (files.empty()) return {};
    // Files whose footers hold the same schema bytes bind to the same columns and types
    // (format::ParquetFooter::table_bytes): DuckDB is asked about one file of each schema, and
    // about every file whose footer does not parse here. A level's __meta__ files share one
    // schema, and parquet_schema() cost ~0.1 ms per file, a quarter of validating a hierarchy.
    std::vector<std::string> asked;
    std::vector<size_t> answer(files.size());  // index into asked
    std::unordered_map<std::string, size_t> by_schema;
    for (size_t i = 0; i < files.size(); ++i) {
        std::optional<ParquetFooter> footer = read_parquet_footer_file(files[i]);
        if (footer) {
            const auto [at, first] =
                by_schema.try_emplace(std::move(footer->table_bytes), asked.size());
            if (first) asked.push_back(files[i]);
            answer[i] = at->second;
        } else {
            answer[i] = asked.size();
            asked.push_back(files[i]);
        }
    }
    const std::vector<std::optional<ParquetColumns>> answers = schemas_of(db, asked);
    std::vector<std::optional<ParquetColumns>> out;
    out.reserve(files.size());
    for (size_t i = 0; i < files.size(); ++i) out.push_back(answers[answer[i]]);
    return out;
}

}  // namespace taco::format
