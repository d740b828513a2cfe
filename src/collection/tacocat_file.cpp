#include "collection/tacocat_file.hpp"

#include <cstring>

#include "io/byte_source.hpp"
#include "io/little_endian.hpp"
#include "taco/errors.hpp"

namespace taco::collection {
namespace {

constexpr char kMagic[8] = {'T', 'A', 'C', 'O', 'C', 'A', 'T', '\0'};

}  // namespace

std::array<uint8_t, kTacocatHeaderSize> encode_tacocat_header(const TacocatHeader& header) {
    std::array<uint8_t, kTacocatHeaderSize> out{};
    std::memcpy(out.data(), kMagic, sizeof kMagic);
    io::store_le32(out.data() + 8, header.version);
    const size_t depth = header.levels.empty() ? 0 : header.levels.size() - 1;
    io::store_le32(out.data() + 12, static_cast<uint32_t>(depth));
    for (size_t i = 0; i < header.levels.size() && i < kTacocatMaxLevels; ++i) {
        io::store_le64(out.data() + 16 + 16 * i, header.levels[i].first);
        io::store_le64(out.data() + 24 + 16 * i, header.levels[i].second);
    }
    io::store_le64(out.data() + 112, header.collection.first);
    io::store_le64(out.data() + 120, header.collection.second);
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
    h.version = io::load_le32(bytes + 8);
    if (h.version != 1) {
        throw FormatError(name + ": __TACOCAT__ version " + std::to_string(h.version) +
                          ", only version 1 is known");
    }
    const uint32_t depth = io::load_le32(bytes + 12);
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
            throw FormatError(name + ": " + what + " at " + io::byte_range_text(offset, size) +
                              " lies outside the file (" + std::to_string(file_size) +
                              " bytes, data starts at byte 128)");
        }
    };
    for (uint32_t i = 0; i <= depth; ++i) {
        const uint64_t offset = io::load_le64(bytes + 16 + 16 * i);
        const uint64_t size = io::load_le64(bytes + 24 + 16 * i);
        check("level" + std::to_string(i) + ".parquet", offset, size);
        h.levels.emplace_back(offset, size);
    }
    h.collection = {io::load_le64(bytes + 112), io::load_le64(bytes + 120)};
    check("COLLECTION.json", h.collection.first, h.collection.second);
    return h;
}

}  // namespace taco::collection
