#include "format/taco_header.hpp"

#include <cstdio>
#include <stdexcept>

#include "io/little_endian.hpp"
#include "taco/errors.hpp"

namespace taco::format {

namespace {

constexpr uint32_t kLocalHeaderSignature = 0x04034b50;

std::string hex32(uint32_t v) {
    char buf[11];
    std::snprintf(buf, sizeof buf, "0x%08X", v);
    return buf;
}

[[noreturn]] void fail(const std::string& path, const std::string& what) {
    throw FormatError(path + ": invalid TACO_HEADER: " + what);
}

void expect_field(const std::string& path, const char* field, size_t offset, uint64_t actual,
                  uint64_t expected) {
    if (actual != expected) {
        fail(path, std::string(field) + " at byte " + std::to_string(offset) + " is " +
                       std::to_string(actual) + ", expected " + std::to_string(expected));
    }
}

}  // namespace

std::string encode_taco_header_payload(const TacoHeader& header) {
    if (header.slots.size() > kTacoHeaderMaxSlots) {
        throw std::invalid_argument("TACO_HEADER holds at most 7 slots, got " +
                                    std::to_string(header.slots.size()));
    }
    std::string payload(kTacoHeaderPayloadSize, '\0');
    payload[0] = static_cast<char>(header.slots.size());
    auto* bytes = reinterpret_cast<uint8_t*>(payload.data());
    for (size_t i = 0; i < header.slots.size(); ++i) {
        io::store_le64(bytes + 4 + 16 * i, header.slots[i].first);
        io::store_le64(bytes + 12 + 16 * i, header.slots[i].second);
    }
    return payload;
}

TacoHeader parse_taco_header(const uint8_t* data, size_t n, const std::string& path,
                             SlotsPastCount past_count) {
    if (n < kTacoHeaderSize) {
        fail(path, "file has " + std::to_string(n) + " bytes, the header needs " +
                       std::to_string(kTacoHeaderSize));
    }
    uint32_t signature = io::load_le32(data);
    if (signature != kLocalHeaderSignature) {
        fail(path, "local file header signature at byte 0 is " + hex32(signature) +
                       ", expected 0x04034B50 (not a ZIP file, or not a TACO ZIP)");
    }
    // Name length and extra length pin the payload at byte 41, which is where readers look for it.
    expect_field(path, "file name length", 26, io::load_le16(data + 26),
                 kTacoHeaderEntryName.size());
    expect_field(path, "extra field length", 28, io::load_le16(data + 28), 0);
    std::string_view name(reinterpret_cast<const char*>(data + 30), kTacoHeaderEntryName.size());
    if (name != kTacoHeaderEntryName) {
        std::string shown;
        for (char c : name) shown += (c >= 0x20 && c < 0x7f) ? c : '?';
        fail(path, "first entry name at byte 30 is '" + shown + "', expected 'TACO_HEADER'");
    }
    expect_field(path, "compression method", 8, io::load_le16(data + 8), 0);
    expect_field(path, "compressed size", 18, io::load_le32(data + 18), kTacoHeaderPayloadSize);
    expect_field(path, "uncompressed size", 22, io::load_le32(data + 22), kTacoHeaderPayloadSize);

    const uint8_t* payload = data + kTacoHeaderPayloadOffset;
    const size_t count = payload[0];
    if (count > kTacoHeaderMaxSlots) {
        fail(path, "slot count at byte 41 is " + std::to_string(count) + ", expected 0..7");
    }
    TacoHeader header;
    header.slots.reserve(count);
    for (size_t i = 0; i < kTacoHeaderMaxSlots; ++i) {
        uint64_t offset = io::load_le64(payload + 4 + 16 * i);
        uint64_t length = io::load_le64(payload + 12 + 16 * i);
        if (i < count) {
            header.slots.emplace_back(offset, length);
        } else if ((offset != 0 || length != 0) && past_count == SlotsPastCount::Refused) {
            // The reference derives count from the non-empty slots, so a filled slot past count
            // means the header and the writer disagree about what the file holds.
            fail(path, "slot " + std::to_string(i) + " (byte " +
                           std::to_string(kTacoHeaderPayloadOffset + 4 + 16 * i) + ") is (" +
                           std::to_string(offset) + ", " + std::to_string(length) +
                           ") but count is " + std::to_string(count) +
                           ", expected unused slots to be zero");
        }
    }
    return header;
}

}  // namespace taco::format
