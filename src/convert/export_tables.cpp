#include "convert/export_tables.hpp"

#include <atomic>
#include <stdexcept>

#include "metadata/parquet_slices.hpp"
#include "metadata/result_table.hpp"
#include "model/column_names.hpp"
#include "paths/path_anchor.hpp"
#include "taco/errors.hpp"

namespace taco::convert {
namespace {

using metadata::quote_identifier;
using metadata::quote_literal;
using metadata::TableColumn;

std::atomic<uint64_t> next_export{0};

std::string copy_options(const metadata::ParquetOptions& o, bool v2) {
    return "FORMAT parquet, " + metadata::parquet_codec_clause(o) + ", ROW_GROUP_SIZE " +
           std::to_string(o.row_group_size) + (v2 ? ", PARQUET_VERSION V2" : "") +
           ", USE_TMP_FILE false";
}

// __meta__ files: zstd at the Arrow default level, as the reference writes them.
constexpr metadata::ParquetOptions kMetaOptions{1, 65536};

}  // namespace

ExportTables::ExportTables(query::DatasetContext& ctx, const ExportTree& tree, bool zip,
                           metadata::ParquetOptions level_options)
    : ctx_(ctx),
      tree_(tree),
      zip_(zip),
      level_options_(level_options),
      prefix_("__taco_export_" + std::to_string(next_export++) + "_l") {
    for (size_t d = 0; d < tree.levels.size(); ++d) {
        columns_.push_back(
            metadata::describe_query(ctx.db, "SELECT * FROM level" + std::to_string(d) + "_table"));
        std::string select;
        for (const ColumnType& c : columns_.back()) {
            if (is_internal_column(c.name)) continue;
            select += (select.empty() ? "" : ", ") + std::string("t.") + quote_identifier(c.name);
        }
        user_select_.push_back(select);
    }
    staged_.assign(tree.levels.size(), "");
    v2_.assign(tree.levels.size(), true);
}

ExportTables::~ExportTables() {
    for (const std::string& table : staged_) {
        if (table.empty()) continue;
        try {
            ctx_.db.exec("DROP TABLE IF EXISTS " + table);
        } catch (...) {  // a temporary table dies with the connection anyway
        }
    }
}

void ExportTables::stage(size_t d) {
    const auto& rows = tree_.levels[d];
    std::vector<int64_t> old_id, new_id, parent, offset, size;
    std::vector<std::string_view> rel;
    for (size_t i = 0; i < rows.size(); ++i) {
        old_id.push_back(rows[i].old_id);
        new_id.push_back(static_cast<int64_t>(i));
        parent.push_back(rows[i].parent);
        offset.push_back(rows[i].offset);
        size.push_back(rows[i].size);
        rel.push_back(rows[i].path);
    }
    std::vector<TableColumn> map;
    map.push_back(TableColumn::of_int64("__old", std::move(old_id)));
    map.push_back(TableColumn::of_int64("__new", std::move(new_id)));
    map.push_back(TableColumn::of_int64("__parent", std::move(parent)));
    map.push_back(TableColumn::of_int64("__offset", std::move(offset)));
    map.push_back(TableColumn::of_int64("__size", std::move(size)));
    map.push_back(TableColumn::of_strings("__rel", std::move(rel)));

    std::string select = user_select_[d];
    auto add = [&](const std::string& expr, const char* name) {
        select += (select.empty() ? "" : ", ") + expr + " AS " + quote_identifier(name);
    };
    add("m.__new", "internal:current_id");
    add("m.__parent", "internal:parent_id");
    if (zip_) {
        add("m.__offset", "internal:offset");
        add("m.__size", "internal:size");
    }
    if (d > 0) add("m.__rel", "internal:relative_path");
    const std::string table = prefix_ + std::to_string(d);
    ctx_.db.exec("DROP TABLE IF EXISTS " + table);
    ctx_.db.exec_with_stream("CREATE TEMP TABLE " + table + " AS SELECT " + select + " FROM level" +
                                 std::to_string(d) + "_table t JOIN taco_stream() m ON CAST(t." +
                                 quote_identifier("internal:current_id") +
                                 " AS BIGINT) = m.__old ORDER BY m.__new",
                             map);
    staged_[d] = table;
    const std::string count = ctx_.db.query_scalar("SELECT count(*) FROM " + table);
    if (count != std::to_string(rows.size())) {
        throw FormatError(ctx_.name() + ": METADATA/level" + std::to_string(d) +
                          ".parquet: internal:current_id does not identify its rows (" +
                          std::to_string(rows.size()) + " rows kept, " + count +
                          " matched); the level table is damaged");
    }
    v2_[d] = metadata::DuckSession::parquet_v2_safe(
        metadata::describe_query(ctx_.db, "SELECT * FROM " + table));
}

void ExportTables::write_metas(size_t d, const std::vector<size_t>& folders,
                               const std::function<void(size_t, std::string&)>& take) {
    const auto& parents = tree_.levels.at(d);
    const auto& children = tree_.levels.at(d + 1);
    // A FOLDER's children are the rows [child_begin, child_begin + child_count) of the next
    // level, which is staged in that order: its __meta__ is that range of the staged table.
    for (size_t row : folders) {
        const TreeRow& r = parents.at(row);
        for (int64_t k = r.child_begin; k < r.child_begin + r.child_count; ++k) {
            if (children.at(static_cast<size_t>(k)).parent != static_cast<int64_t>(row))
                throw std::logic_error("export tree: child " + std::to_string(k) +
                                       " is not under its folder " + std::to_string(row));
        }
    }
    // The staged table has the user columns under their own names (no `t.` alias here).
    std::string cols;
    for (const ColumnType& c : columns_[d + 1]) {
        if (is_internal_column(c.name)) continue;
        cols += (cols.empty() ? "" : ", ") + quote_identifier(c.name);
    }
    if (zip_) {
        cols +=
            ", " + quote_identifier("internal:offset") + ", " + quote_identifier("internal:size");
    }
    metadata::ParquetSlices metas(ctx_.db,
                                  "SELECT " + cols + " FROM " + staged_.at(d + 1) + " ORDER BY " +
                                      quote_identifier("internal:current_id"),
                                  copy_options(kMetaOptions, v2_[d + 1]));
    if (metas.rows() != children.size()) {
        throw std::logic_error("export: level " + std::to_string(d + 1) + " staged " +
                               std::to_string(metas.rows()) + " rows of " +
                               std::to_string(children.size()));
    }
    metas.encode_all(
        folders.size(),
        [&](size_t k) {
            const TreeRow& r = parents[folders[k]];
            const auto begin = static_cast<size_t>(r.child_begin);
            return std::pair<size_t, size_t>(begin, begin + static_cast<size_t>(r.child_count));
        },
        take);
}

void ExportTables::write_level(size_t d, const std::string& path) {
    ctx_.db.exec("COPY (SELECT * FROM " + staged_.at(d) + " ORDER BY " +
                 quote_identifier("internal:current_id") + ") TO " +
                 quote_literal(paths::anchor_path(path).text) + " (" +
                 copy_options(level_options_, v2_[d]) + ")");
}

}  // namespace taco::convert
