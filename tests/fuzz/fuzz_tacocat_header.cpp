// libFuzzer target: the 128-byte `__TACOCAT__` header parser (spec §6.5, FORMAT.md §6.2) on
// arbitrary bytes, with the file size taken from the input itself so ranges past the end are
// explored too. Any outcome but a checked header or a taco::FormatError is a bug.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "collection/tacocat_file.hpp"
#include "taco/errors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    // The first 8 bytes (when present) are the claimed file size; the rest is the header.
    uint64_t file_size = size;
    if (size >= 8) {
        std::memcpy(&file_size, data, 8);
        data += 8;
        size -= 8;
    }
    using namespace taco::collection;
    try {
        const TacocatHeader h = decode_tacocat_header(data, size, file_size, "fuzz");
        // Every range the parser accepts lies inside the file, and the header round-trips.
        if (h.levels.empty() || h.levels.size() > kTacocatMaxLevels) __builtin_trap();
        for (const auto& [offset, length] : h.levels)
            if (offset > file_size || length > file_size - offset) __builtin_trap();
        const auto& [c_offset, c_length] = h.collection;
        if (c_length == 0 || c_offset > file_size || c_length > file_size - c_offset)
            __builtin_trap();
        const auto bytes = encode_tacocat_header(h);
        const TacocatHeader again =
            decode_tacocat_header(bytes.data(), bytes.size(), file_size, "fuzz");
        if (again.levels != h.levels || again.collection != h.collection) __builtin_trap();
    } catch (const taco::FormatError&) {
    }
    return 0;
}
