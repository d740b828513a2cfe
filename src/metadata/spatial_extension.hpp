// DuckDB's spatial extension (ST_* functions in user SQL), loaded from a local file so it works
// offline (DESIGN.md §2: official builds come from PyPI as duckdb-ext-spatial, pinned by version
// and sha256 in scripts/setup.sh). tacocore's own paths (filter_bbox) never need it.
#pragma once

#include <string>

#include "metadata/duckdb_session.hpp"

namespace taco::metadata {

/// The PyPI package and version that carry the extension for the bundled DuckDB 1.4.4.
inline constexpr const char* kSpatialPackage = "duckdb-ext-spatial==1.4.4.20260205";

/// Where the extension file is looked for, first hit wins: $TACO_DUCKDB_SPATIAL (a file; "off"
/// = none), the
/// path given to set_spatial_extension_path (the Python package passes the installed
/// duckdb-ext-spatial wheel's file), then the copy `make setup` puts under third_party/.
/// "" when none exists.
std::string spatial_extension_path();
void set_spatial_extension_path(const std::string& path);

/// Whether `sql` calls an ST_* function (a word `st_...` followed by '(' outside quotes).
bool calls_spatial_function(const std::string& sql);

/// Loads the extension into `db` once. QueryError saying how to install it when there is no
/// file, or with DuckDB's message when it does not load (sandboxed sessions refuse extensions).
void load_spatial_extension(DuckSession& db);

}  // namespace taco::metadata
