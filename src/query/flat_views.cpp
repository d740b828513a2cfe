// Flat views l0..lN (tacoreader 2.4.x `_flat_views.py`), with the same column names and order.
#include "query/flat_views.hpp"

#include "query/cascade.hpp"
#include "query/dataset_context.hpp"
#include "query/level_revalidation.hpp"

namespace taco::query {
namespace {

using metadata::quote_identifier;

constexpr std::string_view kCurrentId = "internal:current_id";
constexpr std::string_view kParentId = "internal:parent_id";
constexpr std::string_view kGdalVsi = "internal:gdal_vsi";

// The columns of view level{k} as the flat views show them.
std::vector<std::string> shown_columns(const std::vector<ColumnType>& table) {
    std::vector<std::string> out;
    for (const ColumnType& c : table) {
        if (c.name == kCurrentId || c.name == kParentId || c.name == kGdalVsi) continue;
        out.push_back(c.name);
    }
    out.emplace_back(kGdalVsi);
    return out;
}

}  // namespace

std::string flat_view_sql(const std::vector<std::vector<ColumnType>>& level_columns, size_t target,
                          const std::string& relation_prefix) {
    for (size_t k = 1; k <= target; ++k) {
        if (!has_column(level_columns[k], kParentId) ||
            !has_column(level_columns[k - 1], kCurrentId))
            return "";
    }
    std::string select;
    for (size_t k = target + 1; k-- > 0;) {
        const std::string alias = "_l" + std::to_string(k);
        const std::string prefix = "l" + std::to_string(k) + ":";
        for (const std::string& name : shown_columns(level_columns[k])) {
            select += (select.empty() ? "" : ", ") + alias + "." + quote_identifier(name) + " AS " +
                      quote_identifier(prefix + name);
        }
    }
    std::string sql = "SELECT " + select + " FROM " + relation_prefix + std::to_string(target) +
                      " _l" + std::to_string(target);
    for (size_t k = target; k-- > 0;) {
        const std::string parent = "_l" + std::to_string(k);
        const std::string child = "_l" + std::to_string(k + 1);
        sql += " JOIN " + relation_prefix + std::to_string(k) + " " + parent + " ON " + parent +
               "." + quote_identifier(std::string(kCurrentId)) + " = " + child + "." +
               quote_identifier(std::string(kParentId));
    }
    return sql;
}

void define_flat_views(metadata::DuckSession& db,
                       const std::vector<std::vector<ColumnType>>& level_columns) {
    for (size_t i = 0; i < level_columns.size(); ++i) {
        const std::string sql = flat_view_sql(level_columns, i, "level");
        if (!sql.empty()) db.exec("CREATE VIEW l" + std::to_string(i) + " AS " + sql);
    }
}

void ensure_flat_views(DatasetContext& ctx) {
    std::lock_guard lock(ctx.db_mutex);
    query::ensure_levels_current(ctx);
    if (ctx.flat_views_defined) return;
    define_flat_views(ctx.db, ctx.level_columns);
    ctx.flat_views_defined = true;
}

std::string filtered_flat_ctes(const std::vector<std::vector<ColumnType>>& level_columns,
                               const std::string& key, const Cascade* cascade) {
    if (level_columns.empty() || !has_column(level_columns[0], kCurrentId)) return "";
    const std::string id = quote_identifier(key);
    // Level 0 restricted to the kept rows; deeper levels follow through the inner joins, each
    // from a cascade's survivors where a cascade filter pruned it (tacoreader's flatten() after
    // filter_*(level=N) lists only the matching descendants).
    std::string ctes = "__taco_flat0 AS (SELECT * FROM level0 WHERE " + id +
                       " IN (SELECT __taco_kept." + id + " FROM data __taco_kept))";
    for (size_t i = 1; i < level_columns.size(); ++i) {
        const std::string survivors = cascade ? cascade->level_sql(i) : std::string();
        ctes += ", __taco_flat" + std::to_string(i) + " AS (" +
                (survivors.empty() ? "SELECT * FROM level" + std::to_string(i) : survivors) + ")";
    }
    for (size_t i = 0; i < level_columns.size(); ++i) {
        const std::string sql = flat_view_sql(level_columns, i, "__taco_flat");
        if (!sql.empty()) ctes += ", l" + std::to_string(i) + " AS (" + sql + ")";
    }
    return ctes;
}

}  // namespace taco::query
