// Decoding raster samples with GDAL into plain buffers, one sample or many in parallel. GDAL is
// only included by the .cpp; callers see bytes, a shape and a numpy dtype name.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "raster/gdal_drivers.hpp"

namespace taco::raster {

struct Raster {
    int bands = 0, height = 0, width = 0;
    std::string dtype;  // numpy name: "uint8", "uint16", "int16", "float32", ...
    size_t element_size = 0;
    std::vector<uint8_t> data;  // band-sequential: (bands, height, width), C order
};

/// What decode() would return, without the pixels: bands, height, width, dtype, element_size.
struct RasterShape {
    int bands = 0, height = 0, width = 0;
    std::string dtype;
    size_t element_size = 0;
    size_t bytes() const { return element_size * static_cast<size_t>(bands) * height * width; }
    bool operator==(const RasterShape& o) const {
        return bands == o.bands && height == o.height && width == o.width && dtype == o.dtype;
    }
};

/// Opens `path` and reads its shape and pixel type only (no pixel is decoded). Throws IoError
/// naming the path when GDAL cannot open it or the pixel type has no numpy equivalent.
RasterShape probe(const std::string& path);

/// Decodes `path` straight into `dst` (expect.bytes() writable bytes, (bands, height, width) C
/// order): the preallocated-buffer form of decode(), used to fill one slot of a batch. Throws
/// IoError naming the path, and what was expected, when its shape or type differs from `expect`.
void decode_into(const std::string& path, const RasterShape& expect, void* dst);

/// Decodes `path` into `buffer`, resized to the raster's bytes (grown only when it is smaller:
/// a loop over same-shaped samples reuses one allocation, without the first-touch page faults
/// and zero-fill a fresh buffer per sample costs). Returns the shape; throws as decode().
RasterShape decode_reusing(const std::string& path, std::vector<uint8_t>& buffer);

/// Decodes every band of the raster at `path` (any GDAL path, e.g. a /vsisubfile/ from read()).
/// Throws IoError naming the path when GDAL cannot open or read it.
Raster decode(const std::string& path);

/// Decodes `paths` on `threads` worker threads (0 = all cores); results in input order. The first
/// failure is rethrown after the workers stop. Once `*stop` is true (Ctrl-C in Python), no
/// further path is started and the result is incomplete: the caller discards it.
std::vector<Raster> decode_many(const std::vector<std::string>& paths, unsigned threads,
                                const std::atomic<bool>* stop = nullptr);

struct DecodeFailure {
    size_t index;         // position in the batch
    std::string message;  // names the path and what went wrong
};

/// Decodes paths[i] into dst + i * expect.bytes() on `threads` threads (0 = all cores): one
/// preallocated buffer holds the whole batch, so a DataLoader batch needs no stacking copy.
/// Every path is tried: a sample that fails (unreadable, other shape) leaves its slot as it was
/// and is returned, in index order, so the caller can name it or skip it.
std::vector<DecodeFailure> decode_batch_into(const std::vector<std::string>& paths,
                                             const RasterShape& expect, uint8_t* dst,
                                             unsigned threads);

}  // namespace taco::raster
