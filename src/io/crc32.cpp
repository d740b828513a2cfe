#include "io/crc32.hpp"

#include <libdeflate.h>

namespace taco::io {

uint32_t crc32(uint32_t crc, const void* data, size_t n) {
    // libdeflate takes the length as size_t already, so no chunking is needed for huge buffers.
    return libdeflate_crc32(crc, data, n);
}

}  // namespace taco::io
