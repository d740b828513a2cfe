// The container-specific halves of taco::validate and the COLLECTION.json check they share.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "format/collection_schema.hpp"
#include "metadata/duckdb_session.hpp"
#include "validate/validate_report.hpp"

namespace taco::format {

/// Parses and checks COLLECTION.json (`where` names it in findings): well-formed JSON, the
/// required fields with their types and values (spec §5.5.2), a valid taco:pit_schema. Returns
/// the document when it could be parsed far enough to compare with the tables.
std::optional<CollectionDocument> check_collection(FindingSink& sink, std::string text,
                                                   const std::string& where);

void validate_zip(const std::filesystem::path& path, FindingSink& sink, metadata::DuckSession& db,
                  const ValidateOptions& options);
void validate_folder(const std::filesystem::path& path, FindingSink& sink,
                     metadata::DuckSession& db, const ValidateOptions& options);
/// A legacy v1 file (validate_legacy.cpp): what v1 defines, as load() checks it, plus ids.
void validate_legacy_v1(const std::filesystem::path& path, FindingSink& sink);
/// A remote dataset (validate_remote.cpp): its metadata as readers fetch it. Returns its format.
ContainerFormat validate_remote(const std::filesystem::path& path, FindingSink& sink,
                                metadata::DuckSession& db);

}  // namespace taco::format
