// The TACO 2.0 COLLECTION.json of a v1 file (docs/FORMAT-DECISIONS.md "Legacy v1"): the v1
// COLLECTION's fields under their 2.0 names, everything else kept verbatim, the original under
// `legacy_v1`, and taco:pit_schema / taco:field_schema computed from the level tables.
#pragma once

#include <string>

#include "legacy/v1_tables.hpp"

namespace taco::legacy {

/// `name`: the v1 file as given (its stem names a plain tortilla, which has no COLLECTION).
/// FormatError naming the file when the v1 COLLECTION is not a JSON object; "unknown v1 version"
/// when its taco_version is not a 0.x version.
std::string v2_collection_json(const V1Tables& tables, const std::string& name,
                               metadata::DuckSession& db);

}  // namespace taco::legacy
