// The single-file TACOCAT index `__TACOCAT__` (spec §6.5, FORMAT.md §6.2): a 128-byte header,
// then the consolidated level Parquet files and COLLECTION.json back to back. Encoding and
// decoding of the header only; the readers and writers around it live beside this file.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace taco::collection {

inline constexpr size_t kTacocatHeaderSize = 128;
inline constexpr size_t kTacocatMaxLevels = 6;
inline constexpr std::string_view kTacocatFileName = "__TACOCAT__";
inline constexpr std::string_view kTacocatFolderName = ".tacocat";

struct TacocatHeader {
    uint32_t version = 1;
    /// (offset, size) of each level Parquet, contiguous from level 0.
    std::vector<std::pair<uint64_t, uint64_t>> levels;
    std::pair<uint64_t, uint64_t> collection{0, 0};
};

/// The 128 bytes of `header` (magic "TACOCAT\0", version, max_depth, 6 level slots, collection).
std::array<uint8_t, kTacocatHeaderSize> encode_tacocat_header(const TacocatHeader& header);

/// Parses and checks the header (magic, version 1, max_depth <= 5, each level present up to
/// max_depth, a non-empty COLLECTION.json, every range inside `file_size`). FormatError naming
/// `name` and the field otherwise.
TacocatHeader decode_tacocat_header(const uint8_t* bytes, size_t n, uint64_t file_size,
                                    const std::string& name);

}  // namespace taco::collection
