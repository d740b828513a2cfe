// format::local_header_name_at: which entry a data offset belongs to, from the local header in
// front of it (how the reader confirms the reference writer's misaligned level offsets).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "format/zip_local_header.hpp"
#include "format/zip_reader.hpp"
#include "io/byte_source.hpp"
#include "io/file.hpp"
#include "test_util.hpp"

namespace fs = std::filesystem;
using taco::format::local_header_name_at;
using taco::test::TempDir;

namespace {

const fs::path kNested = fs::path(TACO_FIXTURES_DIR) / "tacoreader/zip/nested/nested.tacozip";

void put_le(std::string& s, uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) s.push_back(static_cast<char>(v >> (8 * i)));
}

// A local header naming `name` with `extra` bytes of extra field, then "data".
std::string local_header(const std::string& name, size_t extra) {
    std::string h;
    put_le(h, 0x04034b50, 4);
    put_le(h, 20, 2);  // version needed
    put_le(h, 0, 2);   // flags
    put_le(h, 0, 2);   // method: STORE
    put_le(h, 0, 4);   // time, date
    put_le(h, 0, 4);   // crc
    put_le(h, 4, 4);   // sizes
    put_le(h, 4, 4);
    put_le(h, name.size(), 2);
    put_le(h, extra, 2);
    return h + name + std::string(extra, '\x01') + "data";
}

}  // namespace

TEST(ZipLocalHeader, NamesEveryEntryOfAFixtureAtItsDataOffset) {
    const auto source = taco::io::open_local_source(kNested);
    const taco::format::ZipDirectory dir =
        taco::format::read_zip_directory(taco::io::File::open_read(kNested), kNested.string());
    for (const taco::format::ZipEntry& e : dir.entries()) {
        const std::string name(e.name);
        SCOPED_TRACE(name);
        EXPECT_EQ(local_header_name_at(*source, e.data_offset, {name}), 0u);
        // Which one of several: the index of the name the header carries.
        EXPECT_EQ(local_header_name_at(*source, e.data_offset, {"DATA/other", name}), 1u);
        EXPECT_EQ(local_header_name_at(*source, e.data_offset, {name + "x"}), std::nullopt);
        EXPECT_EQ(local_header_name_at(*source, e.data_offset + 1, {name}), std::nullopt);
    }
    // The level-1 offsets of this file are the known misaligned ones: europe/item_0's row
    // stores americas/item_0's data offset (FORMAT.md §4.3).
    EXPECT_EQ(local_header_name_at(*source, 390, {"DATA/europe/item_0", "DATA/americas/item_0"}),
              1u);
}

TEST(ZipLocalHeader, AcceptsExtraFieldsAndRefusesWhatIsNotAHeader) {
    TempDir tmp;
    const fs::path path = tmp / "headers.bin";
    const std::string with_extra = local_header("DATA/a", 20);  // a ZIP64 extra's size
    const std::string plain = local_header("DATA/b", 0);
    const std::string bytes = std::string(7, 'x') + with_extra + plain;
    std::ofstream(path, std::ios::binary).write(bytes.data(), bytes.size());
    const auto source = taco::io::open_local_source(path);
    const uint64_t a_data = 7 + with_extra.size() - 4;
    const uint64_t b_data = bytes.size() - 4;
    EXPECT_EQ(local_header_name_at(*source, a_data, {"DATA/a"}), 0u);
    EXPECT_EQ(local_header_name_at(*source, b_data, {"DATA/a", "DATA/b"}), 1u);
    // The name alone is not enough: its header must end at the offset.
    EXPECT_EQ(local_header_name_at(*source, a_data - 1, {"DATA/a"}), std::nullopt);
    EXPECT_EQ(local_header_name_at(*source, b_data, {"DATA/a"}), std::nullopt);
    // Offsets too close to the start or past the end hold no header.
    EXPECT_EQ(local_header_name_at(*source, 3, {"DATA/a"}), std::nullopt);
    EXPECT_EQ(local_header_name_at(*source, bytes.size() + 10, {"DATA/a"}), std::nullopt);
}
