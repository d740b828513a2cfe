// COLLECTION.json of an export: the source's document with what the subset changes recomputed
// (pit counts, extent) and the reference export's provenance keys added. Everything else, key
// order included, stays as the source wrote it.
#pragma once

#include <string>

#include "convert/export_tables.hpp"
#include "convert/export_tree.hpp"

namespace taco::convert {

/// `source_json`: the source's COLLECTION.json. `subset` false (a migration, every row kept):
/// pit counts and extent recomputed, no taco:subset_of / taco:subset_date. `tables` has every level
/// staged. FormatError when the document is not a JSON object.
std::string export_collection_json(const std::string& source_json, const ExportTree& tree,
                                   ExportTables& tables, metadata::DuckSession& db,
                                   const std::string& name, bool subset = true);

}  // namespace taco::convert
