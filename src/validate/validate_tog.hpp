// `taco validate --tog`: which FILE samples are TACO-optimized GeoTIFFs (taco/tog.hpp).
#pragma once

#include <filesystem>

#include "validate/validate_report.hpp"

namespace taco::convert {

/// Loads the dataset at `path` and, for every FILE sample GDAL opens as a GeoTIFF, adds an info
/// `tog.optimized` or a warning `tog.not-optimized` naming the level, the sample and the reasons.
/// A dataset that does not load adds nothing (its errors are already in the report).
void add_tog_findings(const std::filesystem::path& path, format::FindingSink& sink);

}  // namespace taco::convert
