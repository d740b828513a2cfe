// The merged COLLECTION.json of a collection (TACOLLECTION, spec §6.6, FORMAT.md §7), shared by
// the `.tacocat/` and `__TACOCAT__` writers and `taco tacollection`.
#pragma once

#include <string>
#include <vector>

#include "format/collection_json.hpp"

namespace taco::collection {

struct PartCollection {
    std::string file;              // bare file name of the part
    std::string path;              // as given, for messages
    format::OrderedJson document;  // its COLLECTION.json
};

/// Checks that every part has the first part's PIT structure and field schema (SchemaError
/// naming the part and the difference), then merges: counts summed, extent merged (global
/// box of the parts' boxes by create's arc rule, so one across the antimeridian
/// stays covered; earliest start / latest end), `taco:sources` appended.
format::OrderedJson merge_collections(const std::vector<PartCollection>& parts);

}  // namespace taco::collection
