// The SQL functions filter_bbox's views call. Registered on every reader connection (load,
// concat, validate), so a filtered view stays valid wherever its SQL is run.
#pragma once

#include "metadata/duckdb_session.hpp"

namespace taco::spatial {

/// SQL name of the bbox predicate:
///   __taco_bbox_intersects(geometry BLOB, geometry_crs VARCHAR, minx, miny, maxx, maxy DOUBLE,
///                          box_crs VARCHAR, column VARCHAR, sample VARCHAR) -> BOOLEAN
/// NULL geometry or sample -> NULL (the row is not kept; a NULL sample is DuckDB probing). Bytes
/// that are not WKB, a NULL or unknown geometry CRS: the statement fails with a message naming the
/// column and the sample.
inline constexpr const char* kBboxFunction = "__taco_bbox_intersects";

void register_sql_functions(metadata::DuckSession& db);

}  // namespace taco::spatial
