// Decoding raster samples with GDAL into plain buffers, one sample or many in parallel. GDAL is
// only included by the .cpp; callers see bytes, a shape and a numpy dtype name.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace taco::raster {

struct Raster {
    int bands = 0, height = 0, width = 0;
    std::string dtype;  // numpy name: "uint8", "uint16", "int16", "float32", ...
    size_t element_size = 0;
    std::vector<uint8_t> data;  // band-sequential: (bands, height, width), C order
};

/// Decodes every band of the raster at `path` (any GDAL path, e.g. a /vsisubfile/ from read()).
/// Throws IoError naming the path when GDAL cannot open or read it.
Raster decode(const std::string& path);

/// Decodes `paths` on `threads` worker threads (0 = all cores); results in input order. The first
/// failure is rethrown after the workers stop.
std::vector<Raster> decode_many(const std::vector<std::string>& paths, unsigned threads);

}  // namespace taco::raster
