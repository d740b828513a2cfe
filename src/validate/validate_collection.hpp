// `taco validate` of a collection index (`.tacocat/`, `__TACOCAT__`): the index itself (its
// COLLECTION.json, that every part exists and every range lies inside its part), every part as
// a TACO ZIP, and that the index's rows of each part are exactly that part's own level rows.
#pragma once

#include "collection/collection_open.hpp"
#include "metadata/duckdb_session.hpp"
#include "taco/validate.hpp"
#include "validate/validate_report.hpp"

namespace taco::collection {

void validate_collection(const IndexLocation& where, format::FindingSink& sink,
                         metadata::DuckSession& db, const ValidateOptions& options);

/// The same for a remote index (`.../.tacocat`, `.../__TACOCAT__`): its parts are checked as
/// remote datasets are, by the metadata readers fetch (validate_remote).
void validate_remote_collection(const std::string& index, IndexLayout layout,
                                format::FindingSink& sink, metadata::DuckSession& db,
                                const ValidateOptions& options);

}  // namespace taco::collection
