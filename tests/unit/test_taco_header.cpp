// TACO_HEADER payload encoding and parsing, checked against the reference fixtures (FORMAT.md §2.2,
// §2.3) down to the byte.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include "format/taco_header.hpp"
#include "format/zip_writer.hpp"
#include "io/file.hpp"
#include "taco/errors.hpp"

#include "test_util.hpp"

namespace fs = std::filesystem;
using taco::format::TacoHeader;

using taco::test::TempDir;

namespace {

std::string fixture(const std::string& relative) {
    return std::string(TACO_FIXTURES_DIR) + "/" + relative;
}

std::string read_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    EXPECT_TRUE(in) << path;
    return std::string(std::istreambuf_iterator<char>(in), {});
}

const uint8_t* bytes_of(const std::string& s) {
    return reinterpret_cast<const uint8_t*>(s.data());
}

uint16_t le16(const std::string& s, size_t at) {
    return static_cast<uint16_t>(static_cast<uint8_t>(s[at]) | static_cast<uint8_t>(s[at + 1])
                                                                   << 8);
}

struct FixtureHeader {
    const char* path;
    std::vector<std::pair<uint64_t, uint64_t>> slots;
};

// FORMAT.md §2.3 and the fixtures' README (levels..., then COLLECTION.json).
const std::vector<FixtureHeader>& fixture_headers() {
    static const std::vector<FixtureHeader> headers = {
        {"tacoreader/zip/flat/flat.tacozip", {{490, 5703}, {6238, 2451}}},
        {"tacoreader/zip/nested/nested.tacozip", {{14823, 3478}, {18354, 6295}, {24694, 4180}}},
        {"tacotoolbox/zip/nested_a/nested_a.tacozip",
         {{17720, 2098}, {19871, 2572}, {22488, 2881}}},
        {"tacotoolbox/zip/nested_b/nested_b.tacozip",
         {{17720, 2098}, {19871, 2572}, {22488, 2881}}},
        {"tacotoolbox/zip/simple/simple.tacozip", {{849970, 2230}, {852245, 1583}}},
    };
    return headers;
}

// The flat fixture's first 157 bytes, with `edit` applied, parsed; returns the FormatError message.
std::string parse_error(const std::function<void(std::string&)>& edit) {
    std::string head = read_bytes(fixture("tacoreader/zip/flat/flat.tacozip")).substr(0, 157);
    edit(head);
    try {
        taco::format::parse_taco_header(bytes_of(head), head.size(), "/data/x.tacozip");
    } catch (const taco::FormatError& e) {
        return e.what();
    }
    ADD_FAILURE() << "parse_taco_header accepted a broken header";
    return {};
}

}  // namespace

TEST(TacoHeader, EncodesCountPaddingAndLittleEndianSlots) {
    TacoHeader header{{{490, 5703}, {0x0102030405060708ull, 2451}}};
    const std::string payload = taco::format::encode_taco_header_payload(header);
    ASSERT_EQ(payload.size(), 116u);
    EXPECT_EQ(payload[0], 2);
    EXPECT_EQ(payload.substr(1, 3), std::string(3, '\0'));
    EXPECT_EQ(payload.substr(4, 8), std::string("\xea\x01\0\0\0\0\0\0", 8));
    EXPECT_EQ(payload.substr(12, 8), std::string("\x47\x16\0\0\0\0\0\0", 8));
    EXPECT_EQ(payload.substr(20, 8), std::string("\x08\x07\x06\x05\x04\x03\x02\x01", 8));
    EXPECT_EQ(payload.substr(28, 8), std::string("\x93\x09\0\0\0\0\0\0", 8));
    EXPECT_EQ(payload.substr(36), std::string(80, '\0'));
}

TEST(TacoHeader, EncodesPlaceholderAsAllZeroAndSevenSlotsFully) {
    EXPECT_EQ(taco::format::encode_taco_header_payload({}), std::string(116, '\0'));
    TacoHeader full;
    for (uint64_t i = 1; i <= 7; ++i) full.slots.emplace_back(i * 1000, i);
    const std::string payload = taco::format::encode_taco_header_payload(full);
    EXPECT_EQ(payload[0], 7);
    EXPECT_EQ(static_cast<uint8_t>(payload[4 + 16 * 6]), 7000 & 0xFF);
    EXPECT_EQ(static_cast<uint8_t>(payload[12 + 16 * 6]), 7);
}

TEST(TacoHeader, EncodeRejectsMoreThanSevenSlots) {
    TacoHeader header;
    header.slots.assign(8, {1, 1});
    EXPECT_THROW(taco::format::encode_taco_header_payload(header), std::invalid_argument);
}

TEST(TacoHeader, ParsesEveryReferenceFixture) {
    for (const FixtureHeader& f : fixture_headers()) {
        const std::string bytes = read_bytes(fixture(f.path));
        const TacoHeader header =
            taco::format::parse_taco_header(bytes_of(bytes), bytes.size(), f.path);
        EXPECT_EQ(header.slots, f.slots) << f.path;
        // The slots point at real data: COLLECTION.json is JSON and the levels are Parquet.
        const auto& [json_at, json_len] = header.slots.back();
        EXPECT_EQ(bytes[json_at], '{') << f.path;
        EXPECT_EQ(bytes[json_at + json_len - 1], '}') << f.path;
        EXPECT_EQ(bytes.substr(header.slots[0].first, 4), "PAR1") << f.path;
    }
}

TEST(TacoHeader, ReencodedFixturePayloadIsByteIdentical) {
    for (const FixtureHeader& f : fixture_headers()) {
        const std::string bytes = read_bytes(fixture(f.path));
        const TacoHeader header =
            taco::format::parse_taco_header(bytes_of(bytes), bytes.size(), f.path);
        EXPECT_EQ(taco::format::encode_taco_header_payload(header), bytes.substr(41, 116))
            << f.path;
    }
}

// With the fixture's payload and DOS time, ZipWriter reproduces its first 157 bytes exactly
// (signature, version 10, flags 0, STORE, time, CRC, sizes, name) and the CD record of the header.
TEST(TacoHeader, ZipWriterReproducesReferenceHeaderEntry) {
    TempDir tmp;
    for (const FixtureHeader& f : fixture_headers()) {
        const std::string reference = read_bytes(fixture(f.path));
        const TacoHeader header =
            taco::format::parse_taco_header(bytes_of(reference), reference.size(), f.path);

        const fs::path out = tmp.path() / fs::path(f.path).filename();
        taco::io::File file = taco::io::File::create_exclusive(out);
        taco::format::ZipWriter zip(file.fd(), out.string());
        taco::format::EntryAttrs attrs = taco::format::EntryAttrs::header_entry();
        attrs.time = taco::format::DosDateTime{le16(reference, 10), le16(reference, 12)};
        // Written as a placeholder and patched, the way a TACO writer does it.
        zip.add_bytes(taco::format::kTacoHeaderEntryName, std::string(116, '\0'), attrs);
        zip.rewrite_entry_data(0, taco::format::encode_taco_header_payload(header));
        zip.finish();
        file.close();

        const std::string written = read_bytes(out.string());
        EXPECT_EQ(written.substr(0, 157), reference.substr(0, 157)) << f.path;
        // The archive holds one entry, so its central directory starts at 157; the reference's
        // first CD record (57 bytes) starts at the offset its end record gives.
        const size_t eocd = reference.size() - 22;
        const uint32_t cd_offset = static_cast<uint32_t>(le16(reference, eocd + 16)) |
                                   static_cast<uint32_t>(le16(reference, eocd + 18)) << 16;
        EXPECT_EQ(written.substr(157, 57), reference.substr(cd_offset, 57)) << f.path;
    }
}

TEST(TacoHeader, RejectsShortInput) {
    const std::string bytes(100, '\0');
    try {
        taco::format::parse_taco_header(bytes_of(bytes), bytes.size(), "/data/short.tacozip");
        FAIL() << "accepted 100 bytes";
    } catch (const taco::FormatError& e) {
        EXPECT_STREQ(e.what(),
                     "/data/short.tacozip: invalid TACO_HEADER: file has 100 bytes, the header "
                     "needs 157");
    }
}

TEST(TacoHeader, RejectsBadSignature) {
    const std::string msg = parse_error([](std::string& h) { h[0] = 'X'; });
    EXPECT_NE(msg.find("/data/x.tacozip"), std::string::npos) << msg;
    EXPECT_NE(msg.find("signature at byte 0"), std::string::npos) << msg;
    EXPECT_NE(msg.find("expected 0x04034B50"), std::string::npos) << msg;
}

TEST(TacoHeader, RejectsOtherFirstEntryName) {
    const std::string msg = parse_error([](std::string& h) { h.replace(30, 11, "TACO_GHOST_"); });
    EXPECT_NE(msg.find("name at byte 30 is 'TACO_GHOST_', expected 'TACO_HEADER'"),
              std::string::npos)
        << msg;
}

TEST(TacoHeader, RejectsNameLengthOrExtraThatMovePayload) {
    std::string msg = parse_error([](std::string& h) { h[26] = 10; });
    EXPECT_NE(msg.find("file name length at byte 26 is 10, expected 11"), std::string::npos) << msg;
    msg = parse_error([](std::string& h) { h[28] = 4; });
    EXPECT_NE(msg.find("extra field length at byte 28 is 4, expected 0"), std::string::npos) << msg;
}

TEST(TacoHeader, RejectsWrongSizesAndMethod) {
    std::string msg = parse_error([](std::string& h) { h[18] = 117; });
    EXPECT_NE(msg.find("compressed size at byte 18 is 117, expected 116"), std::string::npos)
        << msg;
    msg = parse_error([](std::string& h) { h[22] = 115; });
    EXPECT_NE(msg.find("uncompressed size at byte 22 is 115, expected 116"), std::string::npos)
        << msg;
    msg = parse_error([](std::string& h) { h[8] = 8; });
    EXPECT_NE(msg.find("compression method at byte 8 is 8, expected 0"), std::string::npos) << msg;
}

TEST(TacoHeader, RejectsCountAboveSeven) {
    const std::string msg = parse_error([](std::string& h) { h[41] = 8; });
    EXPECT_NE(msg.find("slot count at byte 41 is 8, expected 0..7"), std::string::npos) << msg;
}

TEST(TacoHeader, RejectsNonZeroSlotBeyondCount) {
    // flat has count 2; a length in slot 3 (payload byte 12 + 48 = file byte 101) is stray.
    const std::string msg = parse_error([](std::string& h) { h[101] = 1; });
    EXPECT_NE(msg.find("slot 3 (byte 93) is (0, 1) but count is 2"), std::string::npos) << msg;
    // Lowering count below the filled slots is the same defect.
    const std::string msg2 = parse_error([](std::string& h) { h[41] = 1; });
    EXPECT_NE(msg2.find("slot 1 (byte 61) is (6238, 2451) but count is 1"), std::string::npos)
        << msg2;
}
