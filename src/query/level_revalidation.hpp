// A remote FOLDER opened with a warm metadata cache costs one request (COLLECTION.json); its
// level tables come from the cache unverified (format::LevelSource::unverified). Before the
// first statement runs on them they are checked against the server, one conditional request per
// table, all at once, so a query never reads a stale table.
#pragma once

#include "query/dataset_context.hpp"

namespace taco::query {

/// Checks every unverified level table of `ctx` (the caller holds ctx.db_mutex); nothing when
/// all were checked. An unchanged table stays as it is. A changed one is fetched, cached, and
/// swapped in (`level{i}_table` re-pointed at the new bytes) when its columns are the same;
/// when they differ the dataset as loaded no longer describes the server's, and IoError asks to
/// load it again (the cache then holds the new version). Network errors are IoErrors naming the
/// URL; the tables stay unverified so the next query checks them again.
void ensure_levels_current(DatasetContext& ctx);

}  // namespace taco::query
