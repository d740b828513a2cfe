// The TACO_HEADER entry: the first ZIP entry of every TACO ZIP, whose fixed 116-byte payload at
// file offset 41 points at the metadata files (FORMAT.md §2.2-§2.3).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace taco::format {

inline constexpr std::string_view kTacoHeaderEntryName = "TACO_HEADER";
/// Local file header (30) + name (11) + payload (116): the first 157 bytes of the file.
inline constexpr size_t kTacoHeaderSize = 157;
inline constexpr size_t kTacoHeaderPayloadOffset = 41;
inline constexpr size_t kTacoHeaderPayloadSize = 116;
inline constexpr size_t kTacoHeaderMaxSlots = 7;

/// The (absolute data offset, length) pairs stored in the header, packed from slot 0. For a TACO
/// ZIP with L levels: slots 0..L-1 are METADATA/level{i}.parquet, slot L is COLLECTION.json.
struct TacoHeader {
    std::vector<std::pair<uint64_t, uint64_t>> slots;

    bool operator==(const TacoHeader&) const = default;
};

/// The 116-byte payload: count (u8), 3 zero bytes, 7 × (offset u64, length u64) little-endian, with
/// unused slots zero. Throws std::invalid_argument for more than 7 slots.
std::string encode_taco_header_payload(const TacoHeader& header);

/// What a filled slot past `count` means to parse_taco_header.
enum class SlotsPastCount {
    Refused,  // a dataset reader: the header and its writer disagree about what the file holds
    Ignored,  // tacozip's read_header: readers take the first `count` slots, as tacozip does
};

/// Parses the first `n` bytes of a file (at least 157 are needed) the way the reference reader
/// does, but stricter: LFH signature, STORE, sizes 116, name "TACO_HEADER" with no extra field,
/// count <= 7 and (unless `past_count` is Ignored) all-zero slots beyond count. Throws
/// taco::FormatError naming `path` and the bad field.
TacoHeader parse_taco_header(const uint8_t* data, size_t n, const std::string& path,
                             SlotsPastCount past_count = SlotsPastCount::Refused);

}  // namespace taco::format
