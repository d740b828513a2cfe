#include "convert/export_tree.hpp"

#include <mutex>
#include <unordered_map>

#include "io/contained_path.hpp"
#include "metadata/result_table.hpp"
#include "query/error_text.hpp"
#include "query/navigation.hpp"
#include "taco/errors.hpp"
#include "taco/sample.hpp"

namespace taco::convert {
namespace {

using metadata::quote_identifier;
using metadata::ResultTable;

constexpr const char* kCurrentId = "internal:current_id";
constexpr const char* kParentId = "internal:parent_id";
constexpr const char* kGdalVsi = "internal:gdal_vsi";

size_t column(const ResultTable& t, const std::string& name) {
    for (size_t c = 0; c < t.columns(); ++c)
        if (t.schema()[c].name == name) return c;
    throw FormatError("internal: result has no column '" + name + "'");
}

bool is_padding(std::string_view id) {
    return id.substr(0, query::kPaddingPrefix.size()) == query::kPaddingPrefix;
}

// The id becomes a file name (FOLDER output) or part of an entry name (ZIP output): it must be a
// valid sample id, so no path it makes can leave the output.
void check_id(const std::string& name, const std::string& where, const std::string& id,
              bool padding) {
    if (!padding) {
        try {
            validate_sample_id(id);
        } catch (const SchemaError& e) {
            throw FormatError(name + ": " + where + ": " + e.what() +
                              "; it cannot be written as a file name");
        }
    }
    const std::string why = io::unsafe_relative_path(id);
    if (!why.empty()) {
        throw FormatError(name + ": " + where + ": sample id '" + id +
                          "' would make a path outside the output: " + why);
    }
}

struct LevelRows {
    std::shared_ptr<const ResultTable> table;
    size_t current = 0, parent = 0, id = 0, type = 0;
};

LevelRows fetch_level(query::DatasetContext& ctx, size_t level, const std::string& name) {
    const std::string table = "level" + std::to_string(level) + "_table";
    const auto cols = metadata::describe_query(ctx.db, "SELECT * FROM " + table);
    for (const char* needed : {kCurrentId, kParentId}) {
        if (!query::has_column(cols, needed)) {
            throw FormatError(name + ": METADATA/level" + std::to_string(level) +
                              ".parquet has no column '" + needed +
                              "', which export needs to follow the tree (written by a tacotoolbox "
                              "older than 0.21?); recreate the dataset with a current writer");
        }
    }
    LevelRows out;
    out.table =
        ResultTable::fetch(ctx.db, "SELECT " + quote_identifier(kCurrentId) + ", " +
                                       quote_identifier(kParentId) + ", id, type FROM " + table);
    out.current = 0;
    out.parent = 1;
    out.id = 2;
    out.type = 3;
    return out;
}

}  // namespace

ExportTree build_tree(query::DatasetContext& ctx, const RootSelection& roots, size_t depth,
                      const std::string& name) {
    ExportTree tree;
    std::vector<LevelRows> levels;
    std::vector<int64_t> keep_ids;          // current_id of the kept roots, in view order
    std::vector<std::string> keep_by_name;  // or their ids, when the view dropped current_id
    std::unordered_map<int64_t, std::string> root_vsi;
    {
        std::lock_guard lock(ctx.db_mutex);
        for (size_t d = 0; d < depth; ++d) levels.push_back(fetch_level(ctx, d, name));
        if (roots.all_rows) {
            const auto& t = *levels[0].table;
            for (size_t r = 0; r < t.rows(); ++r) keep_ids.push_back(t.get_int(r, 0));
        } else {
            std::vector<ColumnType> cols;
            try {
                cols = metadata::describe_query(ctx.db, roots.view_sql);
            } catch (const QueryError& e) {
                query::rethrow_query(ctx, e, roots.view_sql);  // the user's --where / --sql
            }
            const bool by_id = !query::has_column(cols, kCurrentId);
            if (by_id && !query::has_column(cols, "id")) {
                throw QueryError(name +
                                 ": the view to export has neither 'internal:current_id' "
                                 "nor 'id', so its rows cannot be found in level 0; keep "
                                 "one of them in the SELECT list");
            }
            const std::string key = quote_identifier(by_id ? "id" : kCurrentId);
            std::shared_ptr<const ResultTable> keys;
            try {
                keys = ResultTable::fetch(ctx.db,
                                          "SELECT " + key + " FROM (\n" + roots.view_sql + "\n)");
            } catch (const QueryError& e) {
                query::rethrow_query(ctx, e, roots.view_sql);
            }
            for (size_t r = 0; r < keys->rows(); ++r) {
                if (keys->is_null(r, 0)) continue;
                if (by_id) {
                    keep_by_name.emplace_back(keys->get_string(r, 0));
                } else {
                    keep_ids.push_back(keys->get_int(r, 0));
                }
            }
        }
        auto vsi = ResultTable::fetch(ctx.db, "SELECT " + quote_identifier(kCurrentId) + ", " +
                                                  quote_identifier(kGdalVsi) + " FROM level0");
        for (size_t r = 0; r < vsi->rows(); ++r) {
            if (!vsi->is_null(r, 1))
                root_vsi.emplace(vsi->get_int(r, 0), std::string(vsi->get_string(r, 1)));
        }
    }

    // Level 0, in the view's order.
    const ResultTable& l0 = *levels[0].table;
    std::unordered_map<int64_t, size_t> row_of_id;
    std::unordered_map<std::string, size_t> row_of_name;
    for (size_t r = 0; r < l0.rows(); ++r) {
        row_of_id.emplace(l0.get_int(r, 0), r);
        row_of_name.emplace(std::string(l0.get_string(r, 2)), r);
    }
    if (!keep_by_name.empty()) {
        for (const std::string& id : keep_by_name) {
            const auto it = row_of_name.find(id);
            if (it == row_of_name.end()) {
                throw QueryError(name + ": the view returns id '" + id +
                                 "', which is not a sample of level 0");
            }
            keep_ids.push_back(l0.get_int(it->second, 0));
        }
    }
    if (keep_ids.empty()) {
        throw QueryError(name +
                         ": the view keeps no sample, so there is nothing to export "
                         "(nothing was written)");
    }
    std::unordered_map<std::string, int64_t> seen;
    auto& out0 = tree.levels.emplace_back();
    for (int64_t old : keep_ids) {
        const auto it = row_of_id.find(old);
        if (it == row_of_id.end()) {
            throw QueryError(name + ": the view returns internal:current_id " +
                             std::to_string(old) + ", which is not a row of level 0");
        }
        TreeRow row;
        row.old_id = old;
        row.id = std::string(l0.get_string(it->second, 2));
        row.folder = l0.get_string(it->second, 3) == "FOLDER";
        row.padding = is_padding(row.id);
        const auto [at, fresh] = seen.emplace(row.id, static_cast<int64_t>(out0.size()));
        if (!fresh) {
            throw SchemaError(name + ": two exported samples have the id '" + row.id + "' (rows " +
                              std::to_string(at->second) + " and " + std::to_string(out0.size()) +
                              "); level-0 ids must be unique in a dataset (a concat of datasets "
                              "sharing ids cannot be exported as one)");
        }
        check_id(name, "level 0", row.id, row.padding);
        row.parent = static_cast<int64_t>(out0.size());
        row.path = row.id + (row.folder ? "/" : "");
        if (const auto v = root_vsi.find(old); v != root_vsi.end()) row.vsi = v->second;
        if (row.vsi.empty() && !row.padding) {
            throw FormatError(name + ": level-0 sample '" + row.id +
                              "' has no location (internal:gdal_vsi is NULL)");
        }
        if (!row.folder) ++tree.files;
        out0.push_back(std::move(row));
    }

    // Deeper levels: the children of every kept FOLDER, parent-major, in their table order.
    for (size_t d = 1; d < depth; ++d) {
        const ResultTable& t = *levels[d].table;
        std::unordered_map<int64_t, std::vector<size_t>> children;
        for (size_t r = 0; r < t.rows(); ++r) children[t.get_int(r, 1)].push_back(r);
        auto& parents = tree.levels[d - 1];
        std::vector<TreeRow> out;
        for (size_t p = 0; p < parents.size(); ++p) {
            // The next FOLDERs' __meta__ in one statement per 64 (cached: the cache holds 1024).
            if (p % query::MetaReadahead::kMaxWindow == 0) {
                std::vector<query::FolderRef> next;
                for (size_t q = p; q < parents.size() && q < p + query::MetaReadahead::kMaxWindow;
                     ++q) {
                    if (parents[q].folder && !parents[q].vsi.empty())
                        next.push_back({parents[q].vsi, parents[q].id});
                }
                query::read_folders_ahead(ctx, next);
            }
            TreeRow& parent = parents[p];
            if (!parent.folder) continue;
            parent.child_begin = static_cast<int64_t>(out.size());
            const auto it = children.find(parent.old_id);
            if (it == children.end()) {
                throw FormatError(name + ": FOLDER '" + parent.path +
                                  "' has no children in "
                                  "METADATA/level" +
                                  std::to_string(d) + ".parquet");
            }
            // Where the children's bytes are: the folder's __meta__, as read() finds them.
            auto meta = query::read_folder_children(ctx, parent.vsi, parent.id);
            const size_t meta_id = column(*meta, "id"), meta_vsi = column(*meta, kGdalVsi);
            std::unordered_map<std::string_view, size_t> meta_row;
            for (size_t r = 0; r < meta->rows(); ++r)
                meta_row.emplace(meta->get_string(r, meta_id), r);
            for (size_t r : it->second) {
                TreeRow row;
                row.old_id = t.get_int(r, 0);
                row.parent = static_cast<int64_t>(p);
                row.id = std::string(t.get_string(r, 2));
                row.folder = t.get_string(r, 3) == "FOLDER";
                row.padding = is_padding(row.id);
                check_id(name, "level " + std::to_string(d) + " under '" + parent.path + "'",
                         row.id, row.padding);
                row.path = parent.path + row.id + (row.folder ? "/" : "");
                if (const auto m = meta_row.find(row.id); m != meta_row.end()) {
                    if (!meta->is_null(m->second, meta_vsi))
                        row.vsi = std::string(meta->get_string(m->second, meta_vsi));
                }
                if (row.vsi.empty() && !row.padding) {
                    throw FormatError(name + ": sample '" + row.path +
                                      "' is listed in METADATA/"
                                      "level" +
                                      std::to_string(d) +
                                      ".parquet but not in the "
                                      "__meta__ of its FOLDER '" +
                                      parent.path + "'");
                }
                if (!row.folder) ++tree.files;
                out.push_back(std::move(row));
            }
            parent.child_count = static_cast<int64_t>(out.size()) - parent.child_begin;
        }
        tree.levels.push_back(std::move(out));
    }
    return tree;
}

}  // namespace taco::convert
