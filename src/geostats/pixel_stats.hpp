// One pass of GDAL over a raster's pixels, band by band, giving exact statistics of the valid
// pixels. GDAL is only included by the .cpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace taco::geostats {

struct BandPixelStats {
    uint64_t total = 0;  // pixels in the band
    uint64_t valid = 0;  // pixels that are not nodata, NaN or masked
    // Continuous statistics of the valid pixels (NaN when valid == 0).
    double min = 0, max = 0, mean = 0, std = 0;
    double p25 = 0, p50 = 0, p75 = 0, p95 = 0;
    double p05 = 0;  // not stored: p95 of the values once a negative scale factor reverses them
    // Categorical: valid pixels equal to each requested class value, in that order.
    std::vector<uint64_t> class_counts;
};

/// Reads every band of the raster at `gdal_path` (a file or a /vsimem/ name). `classes` null:
/// continuous statistics; otherwise the count of each class value. Throws IoError naming
/// `label` when GDAL cannot open or read it.
std::vector<BandPixelStats> pixel_stats(const std::string& gdal_path, const std::string& label,
                                        const std::vector<long long>* classes);

}  // namespace taco::geostats
