// Every row of a dataset written as a new one, its COLLECTION.json's pit counts and extent
// recomputed but no subset provenance: what `taco migrate` (src/legacy/) needs from export.
#pragma once

#include <filesystem>

#include "taco/convert.hpp"

namespace taco {

/// As export_dataset() over all of `dataset`'s level-0 rows (padding included), without
/// taco:subset_of / taco:subset_date.
ExportResult export_whole(const Dataset& dataset, const std::filesystem::path& output,
                          const ExportOptions& options);

}  // namespace taco
