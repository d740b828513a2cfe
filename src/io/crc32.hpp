// CRC-32 (zlib polynomial, as ZIP uses it) at memory speed, backed by libdeflate.
#pragma once

#include <cstddef>
#include <cstdint>

namespace taco::io {

/// Continues a CRC-32 over `n` more bytes: start with `crc = 0`, feed the result back for the next
/// chunk. Same values as zlib's `crc32()`.
uint32_t crc32(uint32_t crc, const void* data, size_t n);

}  // namespace taco::io
