// read_zip_directory against the reference archives (FORMAT.md §2.1, §2.8) and against damaged
// copies of them; plus the io::File primitives it reads through.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include "format/taco_header.hpp"
#include "format/zip_reader.hpp"
#include "format/zip_writer.hpp"
#include "io/crc32.hpp"
#include "io/file.hpp"
#include "taco/errors.hpp"

#include "test_util.hpp"

namespace fs = std::filesystem;
using taco::format::ZipDirectory;
using taco::format::ZipEntry;

using taco::test::TempDir;

namespace {

const std::string kFlat = std::string(TACO_FIXTURES_DIR) + "/tacoreader/zip/flat/flat.tacozip";
const std::string kNested =
    std::string(TACO_FIXTURES_DIR) + "/tacoreader/zip/nested/nested.tacozip";

std::string read_bytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    EXPECT_TRUE(in) << path;
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_bytes(const fs::path& path, const std::string& data) {
    std::ofstream out(path, std::ios::binary);
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
}

void put_le(std::string& s, size_t at, uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) s[at + i] = static_cast<char>(v >> (8 * i));
}

ZipDirectory read_dir(const fs::path& path, taco::format::ZipReadOptions options = {}) {
    const taco::io::File file = taco::io::File::open_read(path);
    return taco::format::read_zip_directory(file, path.string(), options);
}

// Writes `bytes` to a temp file, reads its directory and returns the FormatError message.
std::string directory_error(const std::string& bytes) {
    TempDir tmp;
    const fs::path path = tmp / "broken.zip";
    write_bytes(path, bytes);
    try {
        read_dir(path);
    } catch (const taco::FormatError& e) {
        const std::string msg = e.what();
        EXPECT_EQ(msg.rfind(path.string() + ": ", 0), 0u) << "message does not name the file";
        return msg.substr(path.string().size() + 2);
    }
    ADD_FAILURE() << "read_zip_directory accepted a broken archive";
    return {};
}

// The flat fixture with `edit` applied.
std::string edited_flat(const std::function<void(std::string&)>& edit) {
    std::string bytes = read_bytes(kFlat);
    edit(bytes);
    return bytes;
}

}  // namespace

TEST(ZipIoFile, ReadAtReadsRangesAndReportsEndOfFile) {
    const taco::io::File file = taco::io::File::open_read(kFlat);
    EXPECT_EQ(file.size(), 9193u);
    char name[11];
    file.read_at(30, name, sizeof name);
    EXPECT_EQ(std::string(name, sizeof name), "TACO_HEADER");
    char tail[30];
    try {
        file.read_at(9180, tail, sizeof tail);
        FAIL() << "read past end of file";
    } catch (const taco::IoError& e) {
        EXPECT_NE(std::string(e.what()).find(kFlat + "': unexpected end of file at offset 9193 "
                                                     "(13 of 30 bytes read)"),
                  std::string::npos)
            << e.what();
    }
}

TEST(ZipIoFile, OpenAndCreateErrorsNamePathAndReason) {
    TempDir tmp;
    try {
        taco::io::File::open_read(tmp / "nope.tacozip");
        FAIL();
    } catch (const taco::IoError& e) {
        EXPECT_NE(std::string(e.what()).find("nope.tacozip': No such file or directory"),
                  std::string::npos)
            << e.what();
    }
    taco::io::File created = taco::io::File::create_exclusive(tmp / "new.bin");
    created.write_all("abc", 3);
    created.pwrite_all(1, "X", 1);
    created.close();
    EXPECT_FALSE(created.is_open());
    EXPECT_EQ(read_bytes(tmp / "new.bin"), "aXc");
    try {
        taco::io::File::create_exclusive(tmp / "new.bin");
        FAIL();
    } catch (const taco::IoError& e) {
        EXPECT_NE(std::string(e.what()).find("new.bin': File exists"), std::string::npos)
            << e.what();
    }
}

TEST(ZipReader, FlatFixtureMatchesFormatByteMap) {
    const ZipDirectory dir = read_dir(kFlat);
    struct Row {
        const char* name;
        uint64_t lfh, data, size;
    };
    // FORMAT.md §2.8.
    const std::vector<Row> expected = {
        {"TACO_HEADER", 0, 41, 116},
        {"DATA/sample_0", 157, 200, 16},
        {"DATA/sample_1", 216, 259, 13},
        {"DATA/sample_2", 272, 315, 11},
        {"DATA/sample_3", 326, 369, 13},
        {"DATA/sample_4", 382, 425, 12},
        {"METADATA/level0.parquet", 437, 490, 5703},
        {"COLLECTION.json", 6193, 6238, 2451},
    };
    ASSERT_EQ(dir.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(dir[i].name, expected[i].name);
        EXPECT_EQ(dir[i].local_header_offset, expected[i].lfh) << expected[i].name;
        EXPECT_EQ(dir[i].data_offset, expected[i].data) << expected[i].name;
        EXPECT_EQ(dir[i].compressed_size, expected[i].size) << expected[i].name;
        EXPECT_EQ(dir[i].uncompressed_size, expected[i].size) << expected[i].name;
        EXPECT_EQ(dir[i].method, 0);
        EXPECT_EQ(dir[i].flags, 0);
        EXPECT_EQ(dir[i].dos_time, 0xA423);
        EXPECT_EQ(dir[i].dos_date, 0x5B9E);
        EXPECT_EQ(dir[i].external_attr, i == 0 ? 0x01A40000u : 0x81B40000u);
    }
    EXPECT_EQ(dir[0].crc, 0x66EC8C50u);
    EXPECT_EQ(dir.central_directory_offset(), 8689u);
    EXPECT_EQ(dir.central_directory_size(), 482u);
    EXPECT_EQ(dir.file_size(), 9193u);
    EXPECT_FALSE(dir.is_zip64());
}

TEST(ZipReader, NestedFixtureEntryOrder) {
    const ZipDirectory dir = read_dir(kNested);
    std::vector<std::string> names;
    for (const ZipEntry& e : dir.entries()) names.emplace_back(e.name);
    // FORMAT.md §2.1: data in sample order, then __meta__ sorted, then levels, then COLLECTION.
    const std::vector<std::string> expected = {
        "TACO_HEADER",          "DATA/europe/item_0",      "DATA/europe/item_1",
        "DATA/europe/item_2",   "DATA/americas/item_0",    "DATA/americas/item_1",
        "DATA/americas/item_2", "DATA/asia/item_0",        "DATA/asia/item_1",
        "DATA/asia/item_2",     "DATA/americas/__meta__",  "DATA/asia/__meta__",
        "DATA/europe/__meta__", "METADATA/level0.parquet", "METADATA/level1.parquet",
        "COLLECTION.json"};
    EXPECT_EQ(names, expected);
    EXPECT_EQ(dir.find("DATA/asia/__meta__")->data_offset, 5554u);
    EXPECT_EQ(dir.find("COLLECTION.json")->data_offset, 24694u);
}

// Every fixture ZIP: contiguous STORE entries, CRCs that match the data, a name index that finds
// every entry, and a TACO_HEADER whose slots agree with the directory.
TEST(ZipReader, EveryReferenceFixtureIsConsistent) {
    size_t count = 0;
    for (const auto& item : fs::recursive_directory_iterator(TACO_FIXTURES_DIR)) {
        const std::string ext = item.path().extension().string();
        if (ext != ".tacozip" && ext != ".zip") continue;
        ++count;
        SCOPED_TRACE(item.path().string());
        const std::string bytes = read_bytes(item.path());
        const ZipDirectory dir = read_dir(item.path());
        ASSERT_GE(dir.size(), 3u);
        EXPECT_EQ(dir[0].name, "TACO_HEADER");
        EXPECT_EQ(dir[0].local_header_offset, 0u);
        EXPECT_EQ(dir[0].data_offset, 41u);
        EXPECT_EQ(dir[0].compressed_size, 116u);
        EXPECT_EQ(dir.entries().back().name, "COLLECTION.json");
        uint64_t expected_lfh = 0;
        for (size_t i = 0; i < dir.size(); ++i) {
            const ZipEntry& e = dir[i];
            EXPECT_EQ(e.local_header_offset, expected_lfh) << e.name;
            EXPECT_EQ(e.data_offset, e.local_header_offset + 30 + e.name.size()) << e.name;
            EXPECT_EQ(e.method, 0) << e.name;
            EXPECT_EQ(taco::io::crc32(0, bytes.data() + e.data_offset, e.compressed_size), e.crc)
                << e.name;
            EXPECT_EQ(dir.index_of(e.name), i);
            expected_lfh = e.data_offset + e.compressed_size;
        }
        EXPECT_EQ(dir.central_directory_offset(), expected_lfh);
        EXPECT_EQ(dir.central_directory_offset() + dir.central_directory_size() + 22, bytes.size());

        const taco::format::TacoHeader header = taco::format::parse_taco_header(
            reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), item.path().string());
        ASSERT_GE(header.slots.size(), 2u);
        for (size_t level = 0; level + 1 < header.slots.size(); ++level) {
            const ZipEntry* e = dir.find("METADATA/level" + std::to_string(level) + ".parquet");
            ASSERT_NE(e, nullptr);
            EXPECT_EQ(header.slots[level], std::make_pair(e->data_offset, e->compressed_size));
        }
        const ZipEntry* collection = dir.find("COLLECTION.json");
        EXPECT_EQ(header.slots.back(),
                  std::make_pair(collection->data_offset, collection->compressed_size));
    }
    EXPECT_EQ(count, 5u);
}

TEST(ZipReader, FindReturnsNothingForMissingNames) {
    const ZipDirectory dir = read_dir(kFlat);
    EXPECT_EQ(dir.find("DATA/sample_9"), nullptr);
    EXPECT_EQ(dir.find(""), nullptr);
    EXPECT_FALSE(dir.index_of("data/sample_0").has_value());
    EXPECT_FALSE(ZipDirectory().index_of("x").has_value());
}

TEST(ZipReader, CopiesShareNamesAndOutliveTheOriginal) {
    ZipDirectory copy;
    {
        const ZipDirectory original = read_dir(kNested);
        copy = original;
    }
    EXPECT_EQ(copy[5].name, "DATA/americas/item_1");
    EXPECT_EQ(copy.index_of("DATA/americas/item_1"), 5u);
}

TEST(ZipReader, LazyDataOffsetsMatchEagerOnes) {
    const ZipDirectory eager = read_dir(kNested);
    const ZipDirectory lazy = read_dir(kNested, {.resolve_data_offsets = false});
    const taco::io::File file = taco::io::File::open_read(kNested);
    ASSERT_EQ(lazy.size(), eager.size());
    for (size_t i = 0; i < lazy.size(); ++i) {
        EXPECT_EQ(lazy[i].data_offset, taco::format::kUnresolvedDataOffset);
        EXPECT_EQ(taco::format::read_entry_data_offset(file, kNested, lazy, i),
                  eager[i].data_offset);
    }
}

// Local headers far apart (more than the coalescing gap) and out of CD order are still resolved.
TEST(ZipReader, ResolvesSpreadOutLocalHeaders) {
    TempDir tmp;
    const fs::path path = tmp / "spread.zip";
    {
        taco::io::File file = taco::io::File::create_exclusive(path);
        taco::format::ZipWriter zip(file.fd(), path.string());
        for (int i = 0; i < 5; ++i) {
            zip.add_bytes("big" + std::to_string(i),
                          std::string(300000 + i, static_cast<char>('a' + i)));
            zip.add_bytes("small" + std::to_string(i), "s");
        }
        zip.finish();
    }
    const std::string bytes = read_bytes(path);
    const ZipDirectory dir = read_dir(path);
    ASSERT_EQ(dir.size(), 10u);
    for (int i = 0; i < 5; ++i) {
        const ZipEntry* e = dir.find("big" + std::to_string(i));
        ASSERT_NE(e, nullptr);
        EXPECT_EQ(bytes[e->data_offset], 'a' + i);
        EXPECT_EQ(bytes.substr(dir.find("small" + std::to_string(i))->data_offset, 1), "s");
    }
}

TEST(ZipReader, RejectsTinyAndNonZipFiles) {
    EXPECT_EQ(directory_error(""),
              "file is 0 bytes, too small for a ZIP end of central directory record (22 bytes)");
    EXPECT_EQ(directory_error(std::string(5000, 'x')),
              "no ZIP end of central directory record in the last 5000 bytes: not a ZIP file, or "
              "truncated");
}

TEST(ZipReader, RejectsTruncatedArchives) {
    const std::string bytes = read_bytes(kFlat);
    EXPECT_EQ(directory_error(bytes.substr(0, bytes.size() - 1)),
              "no ZIP end of central directory record in the last 9192 bytes: not a ZIP file, or "
              "truncated");
    // The end record survives but the central directory it points at does not (cut, then the
    // 22-byte end record re-appended).
    const std::string cut = bytes.substr(0, 8000) + bytes.substr(bytes.size() - 22);
    EXPECT_EQ(directory_error(cut),
              "central directory at 8689 (482 bytes) extends past end of file (size 8022)");
}

TEST(ZipReader, RejectsEndRecordInconsistencies) {
    EXPECT_EQ(directory_error(edited_flat([](std::string& b) { put_le(b, 9191, 5, 2); })),
              "end of central directory record at 9171 declares a 5-byte comment, but the file "
              "ends 0 bytes after the record");
    EXPECT_EQ(directory_error(edited_flat([](std::string& b) { put_le(b, 9171 + 16, 100000, 4); })),
              "central directory at 100000 (482 bytes) extends past end of file (size 9193)");
    EXPECT_EQ(directory_error(edited_flat([](std::string& b) { put_le(b, 9171 + 10, 7, 2); })),
              "end of central directory record at 9171 describes a multi-disk archive (disk 0, "
              "central directory disk 0, 8 of 7 entries here), which is not supported");
}

TEST(ZipReader, RejectsEntryCountMismatch) {
    // Both count fields lowered: the directory then has bytes left over after 7 records.
    const std::string msg = directory_error(edited_flat([](std::string& b) {
        put_le(b, 9171 + 8, 7, 2);
        put_le(b, 9171 + 10, 7, 2);
    }));
    EXPECT_EQ(msg,
              "central directory at 8689 (482 bytes) has 61 bytes left after the 7 records the "
              "end record lists");
    EXPECT_EQ(directory_error(edited_flat([](std::string& b) {
                  put_le(b, 9171 + 8, 11, 2);
                  put_le(b, 9171 + 10, 11, 2);
              })),
              "end record lists 11 entries, but the central directory at 8689 is only 482 bytes");
}

TEST(ZipReader, RejectsBadCentralDirectoryRecord) {
    EXPECT_EQ(directory_error(edited_flat([](std::string& b) { b[8689] = 'Q'; })),
              "central directory record 0 at 8689 has signature 0x02014B51, expected 0x02014B50");
    // Record 1 (57 bytes after the first) claims a 400-byte name.
    EXPECT_EQ(
        directory_error(edited_flat([](std::string& b) { put_le(b, 8689 + 57 + 28, 400, 2); })),
        "central directory record 1 at 8746 (446 bytes) is truncated: the directory ends at "
        "9171");
}

TEST(ZipReader, RejectsBadLocalHeaders) {
    EXPECT_EQ(directory_error(edited_flat([](std::string& b) { b[157] = 'Q'; })),
              "entry 'DATA/sample_0' (central directory record 1): local header at 157 has "
              "signature 0x04034B51, expected 0x04034B50");
    EXPECT_EQ(directory_error(edited_flat([](std::string& b) { b[157 + 30 + 12] = '9'; })),
              "entry 'DATA/sample_0' (central directory record 1): local header at 157 names "
              "'DATA/sample_9'");
    EXPECT_EQ(directory_error(edited_flat([](std::string& b) { b[157 + 26] = 14; })),
              "entry 'DATA/sample_0' (central directory record 1): local header at 157 has a "
              "14-byte name, expected 13 bytes");
    // COLLECTION.json's CD record claims more data than fits before the central directory.
    const size_t last_record = 8689 + 482 - (46 + 15);
    EXPECT_EQ(directory_error(edited_flat([&](std::string& b) {
                  put_le(b, last_record + 20, 2452, 4);
                  put_le(b, last_record + 24, 2452, 4);
              })),
              "entry 'COLLECTION.json' (central directory record 7): data at 6238 (2452 bytes) "
              "extends past the start of the central directory at 8689");
    EXPECT_EQ(
        directory_error(edited_flat([&](std::string& b) { put_le(b, last_record + 42, 8680, 4); })),
        "entry 'COLLECTION.json' (central directory record 7): local header at 8680 extends "
        "past the start of the central directory at 8689");
}

// unzip, GDAL's /vsizip/ and streaming readers trust the local header, tacocore the directory:
// the two must agree on method, the flags readers obey, CRC and sizes.
TEST(ZipReader, RejectsLocalHeadersThatContradictTheDirectory) {
    EXPECT_EQ(directory_error(edited_flat([](std::string& b) { put_le(b, 157 + 8, 8, 2); })),
              "entry 'DATA/sample_0' (central directory record 1): local header at 157 gives "
              "compression method 8, the directory says 0");
    EXPECT_EQ(directory_error(edited_flat([](std::string& b) { put_le(b, 157 + 6, 8, 2); })),
              "entry 'DATA/sample_0' (central directory record 1): local header at 157 gives "
              "flags 0x00000008, the directory says 0x00000000");
    const std::string crc = directory_error(edited_flat([](std::string& b) { b[157 + 14] ^= 1; }));
    EXPECT_NE(crc.find("local header at 157 gives CRC-32 "), std::string::npos) << crc;
    const std::string size = directory_error(edited_flat([](std::string& b) { b[157 + 22] ^= 1; }));
    EXPECT_NE(size.find("local header at 157 gives sizes "), std::string::npos) << size;
}

TEST(ZipReader, RejectsZip64SentinelWithoutExtra) {
    const size_t first_record = 8689;
    EXPECT_EQ(directory_error(edited_flat(
                  [&](std::string& b) { put_le(b, first_record + 24, 0xFFFFFFFF, 4); })),
              "entry 'TACO_HEADER' (central directory record 0) has fields set to 0xFFFFFFFF but "
              "no ZIP64 extended information extra field");
}

TEST(ZipReader, RejectsDuplicateNames) {
    TempDir tmp;
    const fs::path path = tmp / "dup.zip";
    {
        taco::io::File file = taco::io::File::create_exclusive(path);
        taco::format::ZipWriter zip(file.fd(), path.string());
        zip.add_bytes("a", "1");
        zip.add_bytes("b", "2");
        zip.add_bytes("a", "3");
        zip.finish();
    }
    EXPECT_EQ(directory_error(read_bytes(path)),
              "duplicate entry name 'a' (central directory records 0 and 2)");
}

TEST(ZipReader, RejectsBrokenZip64EndRecords) {
    TempDir tmp;
    const fs::path path = tmp / "many.zip";
    {
        taco::io::File file = taco::io::File::create_exclusive(path);
        taco::format::ZipWriter zip(file.fd(), path.string());
        for (int i = 0; i < 65536; ++i) zip.add_bytes(std::to_string(i), "");
        zip.finish();
    }
    const std::string bytes = read_bytes(path);
    const size_t locator = bytes.size() - 42;
    const size_t record = locator - 56;
    EXPECT_TRUE(read_dir(path).is_zip64());
    std::string broken = bytes;
    broken[record] = 'Q';
    EXPECT_EQ(directory_error(broken),
              "no ZIP64 end of central directory record at " + std::to_string(record) +
                  " (signature 0x06064B51, expected 0x06064B50), although the locator at " +
                  std::to_string(locator) + " points there");
    broken = bytes;
    put_le(broken, locator + 8, locator - 10, 8);
    EXPECT_EQ(directory_error(broken),
              "ZIP64 locator at " + std::to_string(locator) + " points to a ZIP64 end record at " +
                  std::to_string(locator - 10) + ", which does not fit before the locator");
    broken = bytes;
    put_le(broken, locator + 16, 3, 4);
    EXPECT_EQ(directory_error(broken), "ZIP64 locator at " + std::to_string(locator) +
                                           " describes a multi-disk archive (3 disks), which is "
                                           "not supported");
}
