// A hash that is the same on every machine and run (FNV-1a, 64 bits), for names derived from
// text: cache file names, shortened file names. Not for security or hash tables.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace taco::io {

/// FNV-1a 64 of `text` as 16 lowercase hex digits.
inline std::string stable_hash_hex(std::string_view text) {
    uint64_t h = 1469598103934665603ull;
    for (const unsigned char c : text) {
        h ^= c;
        h *= 1099511628211ull;
    }
    char out[17];
    std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
    return out;
}

}  // namespace taco::io
