// TACO-optimized GeoTIFF (TOG, spec taco-0.2.0 "TACO-Optimized GeoTIFFs"): a GeoTIFF written by
// GDAL's COG driver with 512-pixel tiles, ZSTD level 13 with a predictor, BigTIFF, no overviews,
// and the image statistics of `gdalinfo -hist -approx_stats -json -nofl` embedded in
// TIFFTAG_GDAL_METADATA under IMAGE_INFO.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace taco {

struct TogOptions {
    /// Tile size in pixels; must be a multiple of 16 (the spec's default 512).
    int block_size = 512;
    /// ZSTD level (the spec says 13).
    int zstd_level = 13;
    /// Replace an existing output (a regular file only).
    bool overwrite = false;
};

/// Writes the raster at `input` (any GDAL-readable raster, local or a GDAL path) as a TOG at
/// `output`, staged beside it and renamed at the end. IoError when the input is not a raster
/// GDAL can read, the output exists without overwrite, or GDAL fails; SchemaError for a
/// block size that is not a positive multiple of 16.
void write_tog(const std::string& input, const std::filesystem::path& output,
               const TogOptions& options = {});

/// Whether the raster at `path` (a file or a GDAL path such as a sample's /vsisubfile/) is a
/// TOG, and if not, every reason why ("compression is DEFLATE, expected ZSTD", ...).
struct TogCheck {
    bool is_geotiff = false;  // GDAL opens it as a GeoTIFF (else it is no raster of interest)
    bool is_tog = false;
    std::vector<std::string> problems;
};
TogCheck check_tog(const std::string& path);

}  // namespace taco
