// tacoreader 2.4's flat views `l0`..`lN` for user SQL: view `l{i}` is level i with every ancestor
// joined along the parent ids, each column prefixed by its level ("l1:id", "l0:cloud_cover").
// Defined over the level views by the first sql() that names one; dataset.cpp re-binds them to a
// filtered view so that a chained sql() sees only the descendants of the rows it kept.
#pragma once

#include <string>
#include <vector>

#include "metadata/duckdb_session.hpp"
#include "taco/value.hpp"

namespace taco::query {

/// The SELECT of flat view `l{target}`, reading level k from `{relation_prefix}{k}` (e.g.
/// "level" gives level0, level1, ...). Columns: those of `level{target}` first, then of each
/// ancestor up to level 0, without internal:current_id / internal:parent_id (the join keys);
/// internal:gdal_vsi, which the level views add, comes last within each level. Empty when a level
/// on the way lacks the join keys (tables written without internal:current_id).
std::string flat_view_sql(const std::vector<std::vector<ColumnType>>& level_columns, size_t target,
                          const std::string& relation_prefix);

/// CREATE VIEW l0 .. l{N} over the views level0 .. level{N} (those flat_view_sql can build).
void define_flat_views(metadata::DuckSession& db,
                       const std::vector<std::vector<ColumnType>>& level_columns);

struct DatasetContext;
class Cascade;

/// Defines the flat views in `ctx`'s connection once (under its lock): load() does not pay for
/// views most datasets never use.
void ensure_flat_views(DatasetContext& ctx);

/// Common table expressions (without WITH) that shadow l0..lN with the same views restricted to
/// the rows of the current view `data` and their descendants, matched on column `key` of level 0
/// (internal:current_id, or id when the view dropped it). The key is read from `data` by table
/// alias, so a view without it is a binder error naming the column, never a silent correlated
/// reference. With a `cascade`, each level it pruned comes from its survivors. Empty when level
/// 0 has no internal:current_id.
std::string filtered_flat_ctes(const std::vector<std::vector<ColumnType>>& level_columns,
                               const std::string& key, const Cascade* cascade = nullptr);

}  // namespace taco::query
