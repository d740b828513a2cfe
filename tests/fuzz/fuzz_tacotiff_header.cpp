// libFuzzer target: the TIFF first-IFD reader behind TACOTIFFHeader (src/raster/
// tacotiff_header.cpp) on arbitrary bytes. Any outcome but a header of 35 bytes plus four per
// tile, or a taco::FormatError / SchemaError, is a bug.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "memory_source.hpp"
#include "raster/tacotiff_header.hpp"
#include "taco/errors.hpp"

using taco::fuzz::MemorySource;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const MemorySource src(data, size);
    try {
        const std::string h = taco::raster::tacotiff_header(src, "fuzz");
        if (h.size() < 35 || (h.size() - 35) % 4 != 0 || std::memcmp(h.data(), "LOVE", 4) != 0)
            __builtin_trap();
        uint32_t tiles = 0;
        std::memcpy(&tiles, h.data() + 31, 4);
        if (h.size() != 35 + 4 * static_cast<size_t>(tiles)) __builtin_trap();
    } catch (const taco::FormatError&) {
    } catch (const taco::SchemaError&) {
    }
    return 0;
}
