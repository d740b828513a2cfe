#include "query/collection_views.hpp"

#include <map>

#include "io/location.hpp"
#include "metadata/result_table.hpp"
#include "query/dataset_context.hpp"
#include "query/vsi_path.hpp"
#include "taco/errors.hpp"

namespace taco::query {
namespace {

using metadata::quote_identifier;
using metadata::quote_literal;

constexpr const char* kSourceFile = "internal:source_file";
constexpr const char* kCurrentId = "internal:current_id";
constexpr const char* kParentId = "internal:parent_id";

// internal:source_file names a file beside the index; anything else could reach outside it.
bool is_bare_file_name(std::string_view name) {
    return !name.empty() && name != "." && name != ".." &&
           name.find_first_of("/\\") == std::string_view::npos &&
           name.find('\0') == std::string_view::npos;
}

struct LevelPart {
    int64_t first_row = 0;
    int64_t rows = 0;
    int64_t end = 0;  // largest offset + size
    int64_t bad_row = -1;
};

std::string shift_case(const CollectionParts& parts, const std::vector<int64_t>& base) {
    std::string sql = "CASE " + quote_identifier(kSourceFile);
    for (size_t k = 0; k < parts.files.size(); ++k)
        sql += " WHEN " + quote_literal(parts.files[k]) + " THEN " + std::to_string(base[k]);
    return sql + " ELSE 0 END";
}

}  // namespace

std::shared_ptr<const CollectionParts> index_collection(
    metadata::DuckSession& db, const format::OpenedDataset& opened,
    const std::vector<std::string>& level_files,
    const std::vector<std::vector<ColumnType>>& level_columns) {
    auto parts = std::make_shared<CollectionParts>();
    parts->root = opened.parts_root;
    parts->query = opened.parts_query;
    const std::string index = opened.path.string();
    std::vector<std::map<std::string, LevelPart>> levels(level_files.size());
    for (size_t level = 0; level < level_files.size(); ++level) {
        const std::string where = index + ": level" + std::to_string(level) + ".parquet";
        if (!has_column(level_columns[level], kSourceFile)) {
            throw FormatError(where +
                              " has no column 'internal:source_file'; a collection index "
                              "names the part of every row there");
        }
        const std::string sql =
            "SELECT " + quote_identifier(kSourceFile) +
            ", min(file_row_number), count(*), max(CAST(\"internal:offset\" AS BIGINT) + "
            "CAST(\"internal:size\" AS BIGINT)), min(file_row_number) FILTER (WHERE "
            "\"internal:offset\" < 0 OR \"internal:size\" < 0) FROM read_parquet(" +
            quote_literal(level_files[level]) + ", file_row_number = true) GROUP BY 1 ORDER BY 2";
        std::shared_ptr<const metadata::ResultTable> t;
        try {
            t = metadata::ResultTable::fetch(db, sql);
        } catch (const QueryError& e) {
            throw FormatError(where + " cannot be read: " + e.what());
        }
        for (size_t r = 0; r < t->rows(); ++r) {
            if (t->is_null(r, 0)) {
                throw FormatError(where + ": row " + std::to_string(t->get_int(r, 1)) +
                                  " has no internal:source_file (NULL)");
            }
            const std::string file(t->get_string(r, 0));
            if (!is_bare_file_name(file)) {
                throw FormatError(where + ": internal:source_file '" + file +
                                  "' is not a bare file name; parts live beside the index");
            }
            LevelPart p;
            p.first_row = t->get_int(r, 1);
            p.rows = t->get_int(r, 2);
            p.end = t->is_null(r, 3) ? 0 : t->get_int(r, 3);
            p.bad_row = t->is_null(r, 4) ? -1 : t->get_int(r, 4);
            if (p.bad_row >= 0) {
                throw FormatError(where + ": row " + std::to_string(p.bad_row) + " (part '" + file +
                                  "') has a negative internal:offset or internal:size");
            }
            levels[level].emplace(file, p);
            if (std::find(parts->files.begin(), parts->files.end(), file) == parts->files.end())
                parts->files.push_back(file);
        }
    }
    for (size_t level = 0; level < levels.size(); ++level) {
        std::vector<int64_t> base;
        int64_t next = 0;
        for (const std::string& file : parts->files) {
            base.push_back(next);
            const auto it = levels[level].find(file);
            if (it != levels[level].end()) next += it->second.rows;
        }
        parts->id_base.push_back(std::move(base));
    }
    const bool remote = io::is_remote(parts->root);
    for (const std::string& file : parts->files) {
        if (remote) {
            parts->sources.push_back(nullptr);
            continue;
        }
        const std::string path = parts->root + file;
        std::error_code ec;
        if (!std::filesystem::exists(path, ec)) {
            // The index alone is queryable (tacoreader loads it too: an index downloaded without
            // its parts, or parts elsewhere than base_path); reading such a part's samples fails
            // naming it (navigation.cpp archive_for).
            parts->sources.push_back(nullptr);
            parts->missing.push_back(file);
            continue;
        }
        if (!std::filesystem::is_regular_file(path, ec)) {
            throw IoError(index + ": part '" + file + "' is not a regular file (" + path +
                          "); the collection index names it in internal:source_file");
        }
        auto source = io::open_local_source(path);
        for (size_t level = 0; level < levels.size(); ++level) {
            const auto it = levels[level].find(file);
            if (it == levels[level].end()) continue;
            if (static_cast<uint64_t>(it->second.end) > source->size()) {
                throw FormatError(index + ": level" + std::to_string(level) +
                                  ".parquet points past the end of part '" + file +
                                  "': its ranges reach byte " + std::to_string(it->second.end) +
                                  ", the file has " + std::to_string(source->size()) +
                                  " bytes (truncated part or stale index)");
            }
        }
        parts->sources.push_back(std::move(source));
    }
    return parts;
}

std::string collection_table_sql(const CollectionParts& parts, size_t level,
                                 const std::string& scan, const std::vector<ColumnType>& columns) {
    bool shifted = false;
    for (size_t l = 0; l <= level && l < parts.id_base.size(); ++l)
        for (int64_t b : parts.id_base[l]) shifted = shifted || b != 0;
    std::string replace;
    if (shifted && has_column(columns, kCurrentId)) {
        replace += "CAST(" + quote_identifier(kCurrentId) + " AS BIGINT) + " +
                   shift_case(parts, parts.id_base[level]) + " AS " + quote_identifier(kCurrentId);
    }
    if (shifted && has_column(columns, kParentId)) {
        // Level 0's parent_id is its own row index in the reference's files (= current_id).
        const auto& base = parts.id_base[level == 0 ? 0 : level - 1];
        replace += std::string(replace.empty() ? "" : ", ") + "CAST(" +
                   quote_identifier(kParentId) + " AS BIGINT) + " + shift_case(parts, base) +
                   " AS " + quote_identifier(kParentId);
    }
    if (replace.empty()) return "SELECT * FROM " + scan;
    return "SELECT * REPLACE (" + replace + ") FROM " + scan;
}

std::string collection_root_sql(const CollectionParts& parts) {
    const std::string file = quote_identifier(kSourceFile);
    return "concat(" + quote_literal(parts.root) + ", " +
           (io::is_http_vsi(parts.root) ? url_path_sql(file) : file) + ", " +
           quote_literal(parts.query) + ")";
}

std::string collection_source_path(const CollectionParts& parts) {
    std::string dir = parts.root;
    while (!dir.empty() && dir.back() == '/') dir.pop_back();
    return dir + parts.query;
}

std::string part_path_sql(const std::string& source_path_sql, const std::string& file_sql) {
    // Over http the query string goes after the part's name, which is percent-encoded.
    return "CASE WHEN starts_with(" + source_path_sql + ", '/vsicurl/') THEN concat(" +
           "regexp_replace(" + source_path_sql + ", '\\?.*$', ''), '/', " + url_path_sql(file_sql) +
           ", regexp_extract(" + source_path_sql + ", '\\?.*$')) ELSE concat(" + source_path_sql +
           ", '/', " + file_sql + ") END";
}

std::string part_path(const CollectionParts& parts, std::string_view file) {
    std::string path = parts.root;
    append_path(path, file, io::is_http_vsi(parts.root));
    return path.append(parts.query);
}

}  // namespace taco::query
