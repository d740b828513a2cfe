// The reference writer's level >= 1 offsets (FORMAT.md §4.3). tacotoolbox writes each level's
// internal:offset / internal:size by concatenating its folders' `__meta__` tables in sorted
// folder-path order and pasting the two columns beside rows kept in sample order: when the
// folder ids of a level above are not sorted ("europe, americas, asia", or "tile_2" before
// "tile_10"), rows point at other samples' bytes. tacoreader then serves the wrong samples through
// every level >= 1 view, filter and cascade; navigation, which reads `__meta__`, is right.
//
// At load, each ZIP level >= 1 whose FOLDERs above are not in that sorted order is checked: when
// the local file headers at the stored offsets name the samples the misalignment predicts (and
// not the rows' own), the level is *realigned*: its table view reads every row's offset and size
// from the row the writer pasted them into. In a collection each part is judged on its own
// headers (parts by different writers can sit side by side). The stored file is never changed;
// `taco validate` still reports it (zip.offset-mismatch).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "metadata/duckdb_session.hpp"
#include "query/dataset_context.hpp"

namespace taco::query {

/// A misaligned level's corrected offset and size of each row, in row order.
struct RealignedLevel {
    size_t level = 0;
    std::shared_ptr<const std::vector<int64_t>> offsets;
    std::shared_ptr<const std::vector<int64_t>> sizes;
    size_t moved = 0;                // rows whose values came from another row
    std::vector<std::string> parts;  // in a collection: the parts realigned (the others as stored)
};

/// Finds the misaligned levels of `ctx` (a ZIP dataset, or a collection of ZIP parts, local or
/// remote, with `internal:relative_path` at its levels >= 1; nothing for other containers) and
/// keeps them in ctx.realigned_levels, with a warning through taco's log naming the file and the
/// rows. Runs before the level views are defined; the caller holds ctx.db_mutex. A level that
/// cannot be decided (a path, type or part missing, FOLDERs with different numbers of children,
/// headers naming neither sample) is left as stored.
void find_misaligned_levels(DatasetContext& ctx);

/// Level `i` of `ctx` as it is read realigned, or nullptr when it is read as stored.
const RealignedLevel* realigned(const DatasetContext& ctx, size_t i);

/// The relation a realigned level `i` is read through: a scan of its Parquet file whose offset
/// and size come from SQL functions `__taco_{prefix}level{i}_offset(row)` / `_size(row)` that
/// this registers in `db` (ctx's own session, or a concatenation's) over the corrected values:
/// still one scan, in file order, with the plans of an unrealigned level.
std::string realigned_level_relation(metadata::DuckSession& db, const DatasetContext& ctx, size_t i,
                                     const std::string& prefix);

}  // namespace taco::query
