#include "collection/tacocat_file.hpp"

#include <cstring>

#include "taco/errors.hpp"

namespace taco::collection {
namespace {

constexpr char kMagic[8] = {'T', 'A', 'C', 'O', 'C', 'A', 'T', '\0'};

void put_u32(uint8_t* p, uint32_t v) {
    for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}
void put_u64(uint8_t* p, uint64_t v) {
    for (int i = 0; i < 8; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}
uint32_t get_u32(const uint8_t* p) {
    uint32_t v = 0;
    for (int i = 3; i >= 0; --i) v = (v << 8) | p[i];
    return v;
}
uint64_t get_u64(const uint8_t* p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
    return v;
}

std::string range_text(uint64_t offset, uint64_t size) {
    return "bytes [" + std::to_string(offset) + ", " + std::to_string(offset + size) + ")";
}

}  // namespace

std::array<uint8_t, kTacocatHeaderSize> encode_tacocat_header(const TacocatHeader& header) {
    std::array<uint8_t, kTacocatHeaderSize> out{};
    std::memcpy(out.data(), kMagic, sizeof kMagic);
    put_u32(out.data() + 8, header.version);
    const size_t depth = header.levels.empty() ? 0 : header.levels.size() - 1;
    put_u32(out.data() + 12, static_cast<uint32_t>(depth));
    for (size_t i = 0; i < header.levels.size() && i < kTacocatMaxLevels; ++i) {
        put_u64(out.data() + 16 + 16 * i, header.levels[i].first);
        put_u64(out.data() + 24 + 16 * i, header.levels[i].second);
    }
    put_u64(out.data() + 112, header.collection.first);
    put_u64(out.data() + 120, header.collection.second);
    return out;
}

TacocatHeader decode_tacocat_header(const uint8_t* bytes, size_t n, uint64_t file_size,
                                    const std::string& name) {
    if (n < kTacocatHeaderSize) {
        throw FormatError(
            name + ": " + std::to_string(n) +
            " bytes, too small for a __TACOCAT__ file (its header alone is 128 bytes)");
    }
    if (std::memcmp(bytes, kMagic, sizeof kMagic) != 0) {
        throw FormatError(name +
                          ": not a __TACOCAT__ file (expected the magic \"TACOCAT\\0\" at "
                          "byte 0)");
    }
    TacocatHeader h;
    h.version = get_u32(bytes + 8);
    if (h.version != 1) {
        throw FormatError(name + ": __TACOCAT__ version " + std::to_string(h.version) +
                          ", only version 1 is known");
    }
    const uint32_t depth = get_u32(bytes + 12);
    if (depth >= kTacocatMaxLevels) {
        throw FormatError(name + ": __TACOCAT__ max_depth " + std::to_string(depth) +
                          ", at most 5 is allowed");
    }
    auto check = [&](const std::string& what, uint64_t offset, uint64_t size) {
        if (offset == 0 || size == 0) {
            throw FormatError(name + ": the __TACOCAT__ header has no " + what +
                              " (offset or size 0)");
        }
        if (offset < kTacocatHeaderSize || offset > file_size || file_size - offset < size) {
            throw FormatError(name + ": " + what + " at " + range_text(offset, size) +
                              " lies outside the file (" + std::to_string(file_size) +
                              " bytes, data starts at byte 128)");
        }
    };
    for (uint32_t i = 0; i <= depth; ++i) {
        const uint64_t offset = get_u64(bytes + 16 + 16 * i);
        const uint64_t size = get_u64(bytes + 24 + 16 * i);
        check("level" + std::to_string(i) + ".parquet", offset, size);
        h.levels.emplace_back(offset, size);
    }
    h.collection = {get_u64(bytes + 112), get_u64(bytes + 120)};
    check("COLLECTION.json", h.collection.first, h.collection.second);
    return h;
}

}  // namespace taco::collection
