// Catalog export (issue 16): a dataset as a static STAC catalog (one Collection, one Item per
// level-0 sample, assets pointing at GDAL-readable `/vsisubfile/` or file paths).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "taco/dataset.hpp"

namespace taco {

struct CatalogResult {
    std::filesystem::path path;  // the collection.json written
    size_t items = 0;
    std::vector<std::string> warnings;  // e.g. no geometry or time column: fields left out
};

/// Writes `out_dir/collection.json` and `out_dir/items/<id>.json` (STAC 1.0.0) for the rows of
/// `view` (a level-0 view). Geometry from `stac:geometry` / `istac:geometry` (WKB), time from
/// `stac:time_start`/`time_end` (or istac:); without them the items have a null geometry / null
/// datetime and a warning says so. The directory is staged and renamed; IoError when it exists
/// (unless overwrite, which replaces only an earlier STAC export: a directory holding a
/// collection.json) and QueryError when the view keeps no sample.
CatalogResult export_stac(const Dataset& view, const std::filesystem::path& out_dir,
                          bool overwrite = false);

}  // namespace taco
