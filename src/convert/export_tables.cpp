#include "convert/export_tables.hpp"

#include <atomic>

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
    return " (FORMAT parquet, " + metadata::parquet_codec_clause(o) + ", ROW_GROUP_SIZE " +
           std::to_string(o.row_group_size) + (v2 ? ", PARQUET_VERSION V2" : "") +
           ", USE_TMP_FILE false)";
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
    if (d > 0) {
        // write_meta selects one parent's children per FOLDER sample: without an index each of
        // those queries scanned the whole level (quadratic: 100k folders x 400k children took
        // hours); DuckDB answers `parent_id = constant` from an ART index instead.
        ctx_.db.exec("CREATE INDEX " + table + "_parent ON " + table + " (" +
                     quote_identifier("internal:parent_id") + ")");
    }
    v2_[d] = metadata::DuckSession::parquet_v2_safe(
        metadata::describe_query(ctx_.db, "SELECT * FROM " + table));
}

void ExportTables::write_meta(size_t d, size_t row, const std::string& path) {
    const std::string& children = staged_.at(d + 1);
    std::string select = user_select_[d + 1];
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
    ctx_.db.exec("COPY (SELECT " + cols + " FROM " + children + " WHERE " +
                 quote_identifier("internal:parent_id") + " = " + std::to_string(row) +
                 " ORDER BY " + quote_identifier("internal:current_id") + ") TO " +
                 quote_literal(paths::anchor_path(path).text) +
                 copy_options(kMetaOptions, v2_[d + 1]));
}

void ExportTables::write_level(size_t d, const std::string& path) {
    ctx_.db.exec("COPY (SELECT * FROM " + staged_.at(d) + " ORDER BY " +
                 quote_identifier("internal:current_id") + ") TO " +
                 quote_literal(paths::anchor_path(path).text) +
                 copy_options(level_options_, v2_[d]));
}

}  // namespace taco::convert
