// ZipWriter: exact libzip framing (FORMAT.md §2.5), ZIP64 exactly when needed (§2.6), streaming
// sources, in-place patching, and byte-for-byte reproduction of the reference archives.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "format/zip_reader.hpp"
#include "format/zip_writer.hpp"
#include "io/crc32.hpp"
#include "io/file.hpp"
#include "io/read_ahead.hpp"
#include "io/source_file.hpp"
#include "taco/errors.hpp"

#include "test_util.hpp"

namespace fs = std::filesystem;
using taco::format::DosDateTime;
using taco::format::EntryAttrs;
using taco::format::ZipWriter;

using taco::test::TempDir;

namespace {

std::string read_bytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    EXPECT_TRUE(in) << path;
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_bytes(const fs::path& path, const std::string& data) {
    std::ofstream out(path, std::ios::binary);
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
}

uint64_t le(const std::string& s, size_t at, int bytes) {
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; --i) v = v << 8 | static_cast<uint8_t>(s[at + i]);
    return v;
}

// Little-endian byte builder for the expected archives, written independently of the writer.
struct Bytes {
    std::string s;
    Bytes& u16(uint64_t v) { return put(v, 2); }
    Bytes& u32(uint64_t v) { return put(v, 4); }
    Bytes& u64(uint64_t v) { return put(v, 8); }
    Bytes& raw(std::string_view v) {
        s.append(v);
        return *this;
    }
    Bytes& put(uint64_t v, int n) {
        for (int i = 0; i < n; ++i) s.push_back(static_cast<char>(v >> (8 * i)));
        return *this;
    }
};

uint32_t crc_of(std::string_view s) {
    return taco::io::crc32(0, s.data(), s.size());
}

std::string pseudo_random(size_t n, uint32_t seed) {
    std::mt19937 rng(seed);
    std::string s(n, '\0');
    for (char& c : s) c = static_cast<char>(rng());
    return s;
}

const DosDateTime kFixedTime{0xA423, 0x5B9E};  // 2025-12-30 20:33:06, the flat fixture's

EntryAttrs fixed_time(std::optional<uint32_t> external_attr = std::nullopt) {
    EntryAttrs attrs;
    attrs.time = kFixedTime;
    attrs.external_attr = external_attr;
    return attrs;
}

// Writes an archive with `fill` into a fresh file and returns the file's bytes.
std::string write_archive(const fs::path& path, const std::function<void(ZipWriter&)>& fill) {
    taco::io::File file = taco::io::File::create_exclusive(path);
    ZipWriter zip(file.fd(), path.string());
    fill(zip);
    zip.finish();
    file.close();
    return read_bytes(path);
}

}  // namespace

TEST(ZipCrc32, MatchesZlibCheckValueAndChains) {
    EXPECT_EQ(crc_of(""), 0u);
    EXPECT_EQ(crc_of("123456789"), 0xCBF43926u);
    const std::string data = pseudo_random(100000, 1);
    const uint32_t whole = crc_of(data);
    const uint32_t first = taco::io::crc32(0, data.data(), 33333);
    EXPECT_EQ(taco::io::crc32(first, data.data() + 33333, data.size() - 33333), whole);
}

TEST(ZipWriter, DosDateTimeUsesLocalTimeAndLibzipsRange) {
    std::tm tm{};
    tm.tm_year = 2025 - 1900, tm.tm_mon = 11, tm.tm_mday = 30;
    tm.tm_hour = 20, tm.tm_min = 33, tm.tm_sec = 7;  // odd seconds round down
    tm.tm_isdst = -1;
    EXPECT_EQ(taco::format::to_dos_date_time(std::mktime(&tm)), kFixedTime);
    // libzip's (tacozip's) out-of-range rule: a year before 1980 is 1980, the rest kept; a year
    // from 2108 on wraps in the 7-bit field.
    std::tm early{};
    early.tm_year = 79, early.tm_mon = 11, early.tm_mday = 31, early.tm_hour = 23,
    early.tm_min = 59, early.tm_sec = 59, early.tm_isdst = -1;
    EXPECT_EQ(taco::format::to_dos_date_time(std::mktime(&early)),
              (DosDateTime{(23 << 11) | (59 << 5) | 29, (12 << 5) | 31}));  // 1980-12-31
    std::tm late{};
    late.tm_year = 210, late.tm_mon = 0, late.tm_mday = 2, late.tm_hour = 12, late.tm_isdst = -1;
    EXPECT_EQ(taco::format::to_dos_date_time(std::mktime(&late)),
              (DosDateTime{12 << 11, (2 << 9) | (1 << 5) | 2}));  // 2110 -> 1982-01-02
}

TEST(ZipWriter, SmallArchiveHasExactLibzipFraming) {
    TempDir tmp;
    const std::string written = write_archive(tmp / "small.zip", [](ZipWriter& zip) {
        zip.add_bytes("a.txt", "hello", fixed_time());
        zip.add_bytes("DATA/b", "", fixed_time(0x81B40000));
    });

    Bytes expected;
    // Local headers: version 10, flags 0, STORE, time, CRC, sizes, name, no extra.
    expected.u32(0x04034b50).u16(10).u16(0).u16(0).u16(0xA423).u16(0x5B9E);
    expected.u32(crc_of("hello")).u32(5).u32(5).u16(5).u16(0).raw("a.txt").raw("hello");
    expected.u32(0x04034b50).u16(10).u16(0).u16(0).u16(0xA423).u16(0x5B9E);
    expected.u32(0).u32(0).u32(0).u16(6).u16(0).raw("DATA/b");
    const size_t cd_offset = expected.s.size();
    // Central directory: made by 0x033F, needed 10, ..., disk 0, internal 0, external, offset.
    expected.u32(0x02014b50).u16(0x033F).u16(10).u16(0).u16(0).u16(0xA423).u16(0x5B9E);
    expected.u32(crc_of("hello")).u32(5).u32(5).u16(5).u16(0).u16(0).u16(0).u16(0);
    expected.u32(0x81A40000).u32(0).raw("a.txt");
    expected.u32(0x02014b50).u16(0x033F).u16(10).u16(0).u16(0).u16(0xA423).u16(0x5B9E);
    expected.u32(0).u32(0).u32(0).u16(6).u16(0).u16(0).u16(0).u16(0);
    expected.u32(0x81B40000).u32(40).raw("DATA/b");
    const size_t cd_size = expected.s.size() - cd_offset;
    expected.u32(0x06054b50).u16(0).u16(0).u16(2).u16(2).u32(cd_size).u32(cd_offset).u16(0);

    EXPECT_EQ(written, expected.s);
}

TEST(ZipWriter, EmptyArchiveIsJustTheEndRecord) {
    TempDir tmp;
    const std::string written = write_archive(tmp / "empty.zip", [](ZipWriter&) {});
    EXPECT_EQ(written, Bytes().u32(0x06054b50).u16(0).u16(0).u16(0).u16(0).u32(0).u32(0).u16(0).s);
}

// Re-create every reference archive from its entries' bytes, times and attributes: the output must
// be identical to what libzip wrote, central directory and end record included.
TEST(ZipWriter, ReproducesReferenceArchivesByteForByte) {
    TempDir tmp;
    size_t count = 0;
    for (const auto& item : fs::recursive_directory_iterator(TACO_FIXTURES_DIR)) {
        if (item.path().extension() != ".tacozip") continue;
        ++count;
        const std::string reference = read_bytes(item.path());
        const taco::io::File in = taco::io::File::open_read(item.path());
        const taco::format::ZipDirectory dir =
            taco::format::read_zip_directory(in, item.path().string());
        const std::string written =
            write_archive(tmp / item.path().filename().string(), [&](ZipWriter& zip) {
                for (const taco::format::ZipEntry& e : dir.entries()) {
                    EntryAttrs attrs;
                    attrs.time = DosDateTime{e.dos_time, e.dos_date};
                    attrs.external_attr = e.external_attr;
                    zip.add_bytes(
                        e.name,
                        std::string_view(reference).substr(e.data_offset, e.compressed_size),
                        attrs);
                }
            });
        EXPECT_TRUE(written == reference) << item.path() << ": written " << written.size()
                                          << " bytes, reference " << reference.size();
    }
    EXPECT_EQ(count, 5u);
}

TEST(ZipWriter, NonAsciiNameSetsUtf8FlagInBothHeaders) {
    TempDir tmp;
    const std::string name = "DATA/caf\xc3\xa9";
    const std::string written = write_archive(tmp / "utf8.zip", [&](ZipWriter& zip) {
        zip.add_bytes(name, "x");
        zip.add_bytes("plain", "y");
    });
    EXPECT_EQ(le(written, 6, 2), 0x0800u);
    const size_t second = 30 + name.size() + 1;
    EXPECT_EQ(le(written, second + 6, 2), 0u);
    const size_t cd = le(written, written.size() - 6, 4);
    EXPECT_EQ(le(written, cd + 8, 2), 0x0800u);
    EXPECT_EQ(written.substr(cd + 46, name.size()), name);
}

TEST(ZipWriter, RejectsUnrepresentableNamesAndStaysUsable) {
    TempDir tmp;
    taco::io::File file = taco::io::File::create_exclusive(tmp / "names.zip");
    ZipWriter zip(file.fd(), "names.zip");
    EXPECT_THROW(zip.add_bytes("", "x"), taco::FormatError);
    EXPECT_THROW(zip.add_bytes(std::string(65536, 'n'), "x"), taco::FormatError);
    try {
        zip.add_bytes("bad\xff", "x");
        FAIL() << "accepted a non-UTF-8 name";
    } catch (const taco::FormatError& e) {
        EXPECT_NE(std::string(e.what()).find("names.zip: ZIP entry name 'bad"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("is not valid UTF-8"), std::string::npos);
    }
    EXPECT_THROW(zip.add_bytes("overlong\xc0\xaf", "x"), taco::FormatError);
    EXPECT_THROW(zip.add_bytes("surrogate\xed\xa0\x80", "x"), taco::FormatError);
    EXPECT_EQ(zip.add_bytes(std::string(65535, 'n'), "x"), 0u);
    zip.finish();
    EXPECT_EQ(zip.entry_count(), 1u);
}

TEST(ZipWriter, AddFileStreamsLargeFileWithItsMtimeAndMode) {
    TempDir tmp;
    // Larger than the 4 MiB staging buffer and not a multiple of it.
    const std::string content = pseudo_random((10 << 20) + 123, 7);
    const fs::path src = tmp / "source.bin";
    write_bytes(src, content);
    ASSERT_EQ(chmod(src.c_str(), 0640), 0);
    const std::time_t mtime = 1700000000;
    const timespec times[2] = {{mtime, 0}, {mtime, 0}};
    ASSERT_EQ(utimensat(AT_FDCWD, src.c_str(), times, 0), 0);

    const std::string written = write_archive(tmp / "file.zip", [&](ZipWriter& zip) {
        zip.add_bytes("first", "odd-sized prefix");
        EXPECT_EQ(zip.add_file("DATA/source", src), 1u);
        EntryAttrs attrs = fixed_time(0x81B40000);
        zip.add_file("DATA/again", src, attrs);
        EXPECT_EQ(zip.entry(1).size, content.size());
        EXPECT_EQ(zip.entry(1).crc, crc_of(content));
    });
    const taco::io::File in = taco::io::File::open_read(tmp / "file.zip");
    const auto dir = taco::format::read_zip_directory(in, "file.zip");
    ASSERT_EQ(dir.size(), 3u);
    const taco::format::ZipEntry& e = dir[1];
    EXPECT_EQ(e.name, "DATA/source");
    EXPECT_EQ(e.compressed_size, content.size());
    EXPECT_EQ(e.crc, crc_of(content));
    EXPECT_EQ(le(written, e.local_header_offset + 14, 4), crc_of(content));  // patched LFH CRC
    EXPECT_EQ(e.external_attr, static_cast<uint32_t>(S_IFREG | 0640) << 16);
    const DosDateTime expected_time = taco::format::to_dos_date_time(mtime);
    EXPECT_EQ(e.dos_time, expected_time.time);
    EXPECT_EQ(e.dos_date, expected_time.date);
    EXPECT_TRUE(written.compare(e.data_offset, content.size(), content) == 0);
    // Explicit attributes win over the file's own.
    EXPECT_EQ(dir[2].external_attr, 0x81B40000u);
    EXPECT_EQ(dir[2].dos_time, kFixedTime.time);
    EXPECT_TRUE(written.compare(dir[2].data_offset, content.size(), content) == 0);
}

// libzip (tacozip) marks a file its owner may not write with the MS-DOS read-only bit.
TEST(ZipWriter, ReadOnlySourceGetsTheDosReadOnlyBit) {
    TempDir tmp;
    const fs::path src = tmp / "source.bin";
    std::ofstream(src) << "read only";
    fs::permissions(src, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
    write_archive(tmp / "file.zip", [&](ZipWriter& zip) { zip.add_file("DATA/source", src); });
    const taco::io::File in = taco::io::File::open_read(tmp / "file.zip");
    const auto dir = taco::format::read_zip_directory(in, "file.zip");
    ASSERT_EQ(dir.size(), 1u);
    EXPECT_EQ(dir[0].external_attr, (static_cast<uint32_t>(S_IFREG | 0444) << 16) | 1u);
}

// Files read ahead (loaded, or left open when large) give the archive that add_file(path) gives,
// including a 64 KiB zero block that must still become a hole in both.
TEST(ZipWriter, AddFileFromReadAheadMatchesAddFileFromPath) {
    TempDir tmp;
    std::vector<fs::path> paths = {tmp / "a.bin", tmp / "empty.bin", tmp / "zeros.bin",
                                   tmp / "big.bin", tmp / "z.bin"};
    write_bytes(paths[0], pseudo_random(5000, 3));
    write_bytes(paths[1], "");
    write_bytes(paths[2], std::string(200 << 10, '\0'));
    write_bytes(paths[3], pseudo_random(taco::io::ReadAhead::kMaxLoaded + 4097, 4));
    write_bytes(paths[4], "z");
    const std::string direct = write_archive(tmp / "direct.zip", [&](ZipWriter& zip) {
        for (const auto& p : paths) zip.add_file("DATA/" + p.filename().string(), p);
    });
    std::vector<const fs::path*> sources;
    for (const auto& p : paths) sources.push_back(&p);
    taco::io::ReadAhead ahead(sources);
    const std::string ahead_zip = write_archive(tmp / "ahead.zip", [&](ZipWriter& zip) {
        for (size_t i = 0; i < paths.size(); ++i)
            zip.add_file("DATA/" + paths[i].filename().string(), ahead.take(i), paths[i].string());
    });
    EXPECT_TRUE(direct == ahead_zip);
    struct stat a {
    }, b{};
    ASSERT_EQ(::stat((tmp / "direct.zip").c_str(), &a), 0);
    ASSERT_EQ(::stat((tmp / "ahead.zip").c_str(), &b), 0);
    EXPECT_EQ(a.st_blocks, b.st_blocks);
}

TEST(ZipWriter, AddFileErrorsNameTheSourceAndKeepWriterUsable) {
    TempDir tmp;
    taco::io::File file = taco::io::File::create_exclusive(tmp / "err.zip");
    ZipWriter zip(file.fd(), "err.zip");
    try {
        zip.add_file("DATA/missing", tmp / "missing.tif");
        FAIL() << "missing source accepted";
    } catch (const taco::IoError& e) {
        EXPECT_NE(std::string(e.what()).find("missing.tif': No such file or directory"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_THROW(zip.add_file("DATA/dir", tmp / "."), taco::IoError);
    EXPECT_EQ(zip.add_bytes("ok", "fine"), 0u);
    zip.finish();
}

TEST(ZipWriter, AddFdCopiesFromOffsetZeroWhateverThePosition) {
    TempDir tmp;
    const int mfd = memfd_create("zip_writer_test", MFD_CLOEXEC);
    ASSERT_GE(mfd, 0);
    const std::string content = pseudo_random(6 << 20, 3);  // straddles a buffer flush
    ASSERT_EQ(write(mfd, content.data(), content.size()), static_cast<ssize_t>(content.size()));
    // The descriptor's position is at the end now; add_fd must not care.
    const std::string written = write_archive(tmp / "fd.zip", [&](ZipWriter& zip) {
        zip.add_bytes("pad", std::string(1000, 'p'));
        zip.add_fd("METADATA/level0.parquet", mfd, content.size());
    });
    close(mfd);
    const taco::io::File in = taco::io::File::open_read(tmp / "fd.zip");
    const auto dir = taco::format::read_zip_directory(in, "fd.zip");
    ASSERT_EQ(dir.size(), 2u);
    EXPECT_EQ(dir[1].crc, crc_of(content));
    EXPECT_EQ(dir[1].external_attr, 0x81A40000u);
    EXPECT_TRUE(written.compare(dir[1].data_offset, content.size(), content) == 0);
}

TEST(ZipWriter, ShortSourceThrowsAndPoisonsWriter) {
    TempDir tmp;
    const int mfd = memfd_create("zip_writer_short", MFD_CLOEXEC);
    ASSERT_GE(mfd, 0);
    ASSERT_EQ(write(mfd, "abc", 3), 3);
    taco::io::File file = taco::io::File::create_exclusive(tmp / "short.zip");
    ZipWriter zip(file.fd(), "short.zip");
    EXPECT_THROW(zip.add_fd("x", mfd, 10, {}), taco::IoError);
    close(mfd);
    EXPECT_THROW(zip.add_bytes("y", "z"), std::logic_error);
    EXPECT_THROW(zip.finish(), std::logic_error);
}

TEST(ZipWriter, PositionAndEntryInfoPredictOffsets) {
    TempDir tmp;
    std::vector<taco::format::ZipEntryInfo> infos;
    write_archive(tmp / "pos.zip", [&](ZipWriter& zip) {
        const std::vector<std::pair<std::string, std::string>> items = {
            {"TACO_HEADER", std::string(116, '\0')},
            {"DATA/sample_0", "0123456789abcdef"},
            {"DATA/b", ""},
            {"DATA/c", std::string(5 << 20, 'c')},
            {"COLLECTION.json", "{}"}};
        for (const auto& [name, data] : items) {
            const uint64_t before = zip.position();
            const size_t i = zip.add_bytes(name, data);
            const taco::format::ZipEntryInfo info = zip.entry(i);
            EXPECT_EQ(info.name, name);
            EXPECT_EQ(info.local_header_offset, before);
            EXPECT_EQ(info.data_offset,
                      before + taco::format::zip_local_header_size(name, data.size()));
            EXPECT_EQ(zip.position(), info.data_offset + data.size());
            infos.push_back(info);
        }
        EXPECT_EQ(zip.entry(0).data_offset, 41u);
        EXPECT_EQ(zip.entry(1).data_offset, 200u);  // the same as flat.tacozip's sample_0
    });
    const taco::io::File in = taco::io::File::open_read(tmp / "pos.zip");
    const auto dir = taco::format::read_zip_directory(in, "pos.zip");
    ASSERT_EQ(dir.size(), infos.size());
    for (size_t i = 0; i < infos.size(); ++i) {
        EXPECT_EQ(dir[i].data_offset, infos[i].data_offset);
        EXPECT_EQ(dir[i].crc, infos[i].crc);
    }
    EXPECT_EQ(taco::format::zip_local_header_size("x", 0xFFFFFFFEull), 31u);
    EXPECT_EQ(taco::format::zip_local_header_size("x", 0xFFFFFFFFull), 51u);
}

TEST(ZipWriter, RewriteEntryDataPatchesDataAndBothCrcs) {
    TempDir tmp;
    const int mfd = memfd_create("zip_writer_rewrite", MFD_CLOEXEC);
    ASSERT_GE(mfd, 0);
    const std::string big = pseudo_random(6 << 20, 5);
    ASSERT_EQ(write(mfd, big.data(), big.size()), static_cast<ssize_t>(big.size()));
    const std::string header_payload = pseudo_random(116, 9);
    const std::string replacement = pseudo_random(big.size(), 11);
    const std::string written = write_archive(tmp / "rewrite.zip", [&](ZipWriter& zip) {
        zip.add_bytes("TACO_HEADER", std::string(116, '\0'), EntryAttrs::header_entry());
        zip.add_fd("DATA/big", mfd, big.size());  // flushes the header, straddles a flush
        zip.add_bytes("DATA/small", "small");
        zip.rewrite_entry_data(2, "SMALL");         // still in the buffer
        zip.rewrite_entry_data(1, replacement);     // half on disk, half buffered
        zip.rewrite_entry_data(0, header_payload);  // on disk
        EXPECT_EQ(zip.entry(0).crc, crc_of(header_payload));
    });
    close(mfd);
    EXPECT_EQ(written.substr(41, 116), header_payload);
    EXPECT_EQ(le(written, 14, 4), crc_of(header_payload));
    const taco::io::File in = taco::io::File::open_read(tmp / "rewrite.zip");
    const auto dir = taco::format::read_zip_directory(in, "rewrite.zip");
    EXPECT_EQ(dir[0].crc, crc_of(header_payload));
    EXPECT_EQ(dir[0].external_attr, 0x01A40000u);
    EXPECT_EQ(dir[1].crc, crc_of(replacement));
    EXPECT_EQ(le(written, dir[1].local_header_offset + 14, 4), crc_of(replacement));
    EXPECT_TRUE(written.compare(dir[1].data_offset, replacement.size(), replacement) == 0);
    EXPECT_EQ(written.substr(dir[2].data_offset, 5), "SMALL");
    EXPECT_EQ(dir[2].crc, crc_of("SMALL"));
}

TEST(ZipWriter, RewriteAndFinishRejectMisuse) {
    TempDir tmp;
    taco::io::File file = taco::io::File::create_exclusive(tmp / "misuse.zip");
    ZipWriter zip(file.fd(), "misuse.zip");
    zip.add_bytes("a", "abc");
    EXPECT_THROW(zip.rewrite_entry_data(0, "abcd"), std::invalid_argument);
    EXPECT_THROW(zip.rewrite_entry_data(1, "abc"), std::out_of_range);
    zip.finish();
    EXPECT_TRUE(zip.finished());
    EXPECT_THROW(zip.rewrite_entry_data(0, "xyz"), std::logic_error);
    EXPECT_THROW(zip.add_bytes("b", ""), std::logic_error);
    EXPECT_THROW(zip.finish(), std::logic_error);
}

// Zero blocks are skipped only past the destination's initial size; below it they must overwrite.
// The zero entry spans both regions: [35, 256 KiB) holds old bytes, the rest is new.
TEST(ZipWriter, ZeroDataOverwritesExistingDestinationBytes) {
    TempDir tmp;
    const fs::path path = tmp / "reused.zip";
    write_bytes(path, std::string(256 << 10, 'X'));
    const int fd = open(path.c_str(), O_RDWR | O_CLOEXEC);
    ASSERT_GE(fd, 0);
    ZipWriter zip(fd, path.string());
    zip.add_bytes("zeros", std::string(512 << 10, '\0'));
    zip.finish();
    close(fd);
    const std::string written = read_bytes(path);
    ASSERT_EQ(written.size(), zip.position());
    EXPECT_EQ(written.substr(35, 512 << 10), std::string(512 << 10, '\0'));
}

TEST(ZipWriter, NoZip64At65535Entries) {
    TempDir tmp;
    const std::string written = write_archive(tmp / "n65535.zip", [](ZipWriter& zip) {
        for (int i = 0; i < 65535; ++i) zip.add_bytes("e" + std::to_string(i), "");
    });
    const size_t eocd = written.size() - 22;
    EXPECT_EQ(le(written, eocd, 4), 0x06054b50u);
    EXPECT_EQ(le(written, eocd + 8, 2), 65535u);
    EXPECT_NE(le(written, eocd - 20, 4), 0x07064b50u);
    EXPECT_EQ(le(written, eocd + 16, 4) + le(written, eocd + 12, 4), eocd);
}

TEST(ZipWriter, Zip64ByEntryCount) {
    TempDir tmp;
    const size_t n = 70000;
    uint64_t cd_offset = 0;
    for (size_t i = 0; i < n; ++i) cd_offset += 30 + ("DATA/" + std::to_string(i)).size();
    const std::string written = write_archive(tmp / "n70000.zip", [&](ZipWriter& zip) {
        for (size_t i = 0; i < n; ++i) zip.add_bytes("DATA/" + std::to_string(i), "");
        EXPECT_EQ(zip.position(), cd_offset);
    });
    const size_t eocd = written.size() - 22;
    const size_t locator = eocd - 20;
    const size_t record = locator - 56;
    const uint64_t cd_size = record - cd_offset;
    // Classic end record: the count is clamped, size and offset fit and keep their values.
    EXPECT_EQ(written.substr(eocd), Bytes()
                                        .u32(0x06054b50)
                                        .u16(0)
                                        .u16(0)
                                        .u16(0xFFFF)
                                        .u16(0xFFFF)
                                        .u32(cd_size)
                                        .u32(cd_offset)
                                        .u16(0)
                                        .s);
    EXPECT_EQ(written.substr(locator, 20), Bytes().u32(0x07064b50).u32(0).u64(record).u32(1).s);
    EXPECT_EQ(written.substr(record, 56), Bytes()
                                              .u32(0x06064b50)
                                              .u64(44)
                                              .u16(45)
                                              .u16(45)
                                              .u32(0)
                                              .u32(0)
                                              .u64(n)
                                              .u64(n)
                                              .u64(cd_size)
                                              .u64(cd_offset)
                                              .s);
    // The records themselves need no ZIP64: version needed stays 10, no extra.
    EXPECT_EQ(le(written, cd_offset + 6, 2), 10u);
    EXPECT_EQ(le(written, cd_offset + 30, 2), 0u);

    const taco::io::File in = taco::io::File::open_read(tmp / "n70000.zip");
    const auto dir = taco::format::read_zip_directory(in, "n70000.zip");
    EXPECT_TRUE(dir.is_zip64());
    ASSERT_EQ(dir.size(), n);
    EXPECT_EQ(dir[69999].name, "DATA/69999");
    EXPECT_EQ(dir.index_of("DATA/12345"), 12345u);
    EXPECT_EQ(dir[n - 1].data_offset, cd_offset);
}

// A sparse source of 4 GiB + 10 bytes (no disk cost; the archive stays sparse too) forces every
// ZIP64 form: LFH/CD size extras, a record whose size and offset both overflow, and a small entry
// past 4 GiB that only needs the offset extra. Takes a few seconds (8 GiB of zeros are CRC'd).
TEST(ZipWriter, Zip64BySizeAndOffsetFromSparseSource) {
    TempDir tmp;
    const uint64_t big = (uint64_t{4} << 30) + 10;
    const fs::path src = tmp / "sparse.bin";
    {
        taco::io::File f = taco::io::File::create_exclusive(src);
        ASSERT_EQ(ftruncate(f.fd(), static_cast<off_t>(big)), 0);
        f.pwrite_all(0, "HEAD", 4);
        f.pwrite_all(big - 4, "TAIL", 4);
    }
    const fs::path out = tmp / "zip64.zip";
    std::vector<taco::format::ZipEntryInfo> infos;
    {
        taco::io::File file = taco::io::File::create_exclusive(out);
        ZipWriter zip(file.fd(), out.string());
        zip.add_bytes("a", "x");
        zip.add_file("DATA/big1", src);
        zip.add_file("DATA/big2", src);
        zip.add_bytes("z", "tail");
        for (size_t i = 0; i < 4; ++i) infos.push_back(zip.entry(i));
        zip.finish();
        file.close();
    }
    struct stat st {};
    ASSERT_EQ(stat(out.c_str(), &st), 0);
    EXPECT_LT(static_cast<uint64_t>(st.st_blocks) * 512, uint64_t{64} << 20) << "not sparse";

    const taco::io::File in = taco::io::File::open_read(out);
    auto read = [&](uint64_t offset, size_t n) {
        std::string s(n, '\0');
        in.read_at(offset, s.data(), n);
        return s;
    };
    EXPECT_EQ(infos[1].local_header_offset, 32u);
    EXPECT_EQ(infos[1].data_offset, 32u + 30 + 9 + 20);
    EXPECT_GT(infos[2].local_header_offset, 0xFFFFFFFFull);
    EXPECT_GT(infos[3].local_header_offset, 0xFFFFFFFFull);
    uint32_t expected_crc = taco::io::crc32(0, "HEAD", 4);
    const std::string zeros(4 << 20, '\0');
    for (uint64_t left = big - 8; left > 0;) {
        const size_t n = static_cast<size_t>(std::min<uint64_t>(left, zeros.size()));
        expected_crc = taco::io::crc32(expected_crc, zeros.data(), n);
        left -= n;
    }
    expected_crc = taco::io::crc32(expected_crc, "TAIL", 4);
    EXPECT_EQ(infos[1].crc, expected_crc);
    EXPECT_EQ(infos[2].crc, expected_crc);

    // Local headers: the big ones are version 45 with a 20-byte extra; the small one is plain.
    for (size_t i : {1, 2}) {
        const std::string lfh = read(infos[i].local_header_offset, 30 + 9 + 20);
        EXPECT_EQ(le(lfh, 4, 2), 45u);
        EXPECT_EQ(le(lfh, 18, 4), 0xFFFFFFFFu);
        EXPECT_EQ(le(lfh, 22, 4), 0xFFFFFFFFu);
        EXPECT_EQ(le(lfh, 28, 2), 20u);
        EXPECT_EQ(lfh.substr(39), Bytes().u16(1).u16(16).u64(big).u64(big).s);
        EXPECT_EQ(read(infos[i].data_offset, 4), "HEAD");
        EXPECT_EQ(read(infos[i].data_offset + big - 4, 4), "TAIL");
    }
    const std::string small = read(infos[3].local_header_offset, 30 + 1 + 4);
    EXPECT_EQ(le(small, 4, 2), 10u);
    EXPECT_EQ(le(small, 28, 2), 0u);
    EXPECT_EQ(small.substr(31), "tail");

    // Central directory records, parsed by hand.
    const uint64_t size = in.size();
    const std::string tail = read(size - 98, 98);
    const uint64_t cd_offset = le(tail, 48, 8);
    const uint64_t cd_size = le(tail, 40, 8);
    EXPECT_EQ(le(tail, 56 + 20 + 16, 4), 0xFFFFFFFFu);  // classic EOCD offset clamped
    EXPECT_EQ(le(tail, 56 + 20 + 8, 2), 4u);            // count fits and stays
    const std::string cd = read(cd_offset, cd_size);
    size_t pos = 0;
    std::vector<std::string> extras;
    std::vector<uint64_t> needed, offsets, sizes;
    while (pos < cd.size()) {
        const size_t name_len = le(cd, pos + 28, 2), extra_len = le(cd, pos + 30, 2);
        needed.push_back(le(cd, pos + 6, 2));
        sizes.push_back(le(cd, pos + 24, 4));
        offsets.push_back(le(cd, pos + 42, 4));
        extras.push_back(cd.substr(pos + 46 + name_len, extra_len));
        pos += 46 + name_len + extra_len;
    }
    ASSERT_EQ(extras.size(), 4u);
    EXPECT_EQ(needed, (std::vector<uint64_t>{10, 45, 45, 45}));
    EXPECT_EQ(sizes, (std::vector<uint64_t>{1, 0xFFFFFFFF, 0xFFFFFFFF, 4}));
    EXPECT_EQ(offsets, (std::vector<uint64_t>{0, 32, 0xFFFFFFFF, 0xFFFFFFFF}));
    EXPECT_EQ(extras[0], "");
    EXPECT_EQ(extras[1], Bytes().u16(1).u16(16).u64(big).u64(big).s);
    EXPECT_EQ(extras[2],
              Bytes().u16(1).u16(24).u64(big).u64(big).u64(infos[2].local_header_offset).s);
    EXPECT_EQ(extras[3], Bytes().u16(1).u16(8).u64(infos[3].local_header_offset).s);

    const auto dir = taco::format::read_zip_directory(in, out.string());
    EXPECT_TRUE(dir.is_zip64());
    ASSERT_EQ(dir.size(), 4u);
    for (size_t i = 0; i < 4; ++i) {
        EXPECT_EQ(dir[i].name, infos[i].name);
        EXPECT_EQ(dir[i].local_header_offset, infos[i].local_header_offset);
        EXPECT_EQ(dir[i].data_offset, infos[i].data_offset);
        EXPECT_EQ(dir[i].uncompressed_size, infos[i].size);
        EXPECT_EQ(dir[i].compressed_size, infos[i].size);
        EXPECT_EQ(dir[i].crc, infos[i].crc);
    }
}

// A big file (kKernelCopyMin or more) is copied by the kernel and its CRC summed from the
// archive behind the copy: entry(i).crc may still be 0, crc_of(i) waits, finish() patches every
// local header. The stored bytes and both CRCs must be the file's; a file that grew during its
// copy is refused.
TEST(ZipWriter, BigFilesCopiedByTheKernelGetTheCrcOfWhatWasStored) {
    TempDir tmp;
    const size_t n = ZipWriter::kKernelCopyMin * 3 + 17;
    std::string bytes(n, '\0');
    std::mt19937 rng(7);
    for (char& c : bytes) c = static_cast<char>(rng());
    const fs::path src = tmp / "big.bin";
    std::ofstream(src, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(n));
    const uint32_t crc = taco::io::crc32(0, bytes.data(), n);

    const fs::path out = tmp / "big.zip";
    {
        taco::io::File file = taco::io::File::create_exclusive(out);
        ZipWriter zip(file.fd(), out.string());
        zip.add_bytes("a", "x");  // the data of the big entries starts at an odd offset
        for (int k = 0; k < 3; ++k) zip.add_file("DATA/big" + std::to_string(k), src);
        EXPECT_EQ(zip.crc_of(2), crc);
        zip.finish();
        file.close();
    }
    const taco::io::File in = taco::io::File::open_read(out);
    const auto dir = taco::format::read_zip_directory(in, out.string());
    ASSERT_EQ(dir.size(), 4u);
    for (size_t i = 1; i < 4; ++i) {
        std::string got(n, '\0');
        in.read_at(dir[i].data_offset, got.data(), n);
        EXPECT_TRUE(got == bytes) << dir[i].name;
        EXPECT_EQ(dir[i].crc, crc) << dir[i].name;
        // The local header holds it too (read_zip_directory compares the two).
        std::string lfh(30, '\0');
        in.read_at(dir[i].local_header_offset, lfh.data(), 30);
        EXPECT_EQ(le(lfh, 14, 4), crc) << dir[i].name;
    }

    // Grown after it was opened (a writer appending to it): refused, naming the file.
    const taco::io::SourceFile opened = taco::io::open_source(src.string());
    std::ofstream(src, std::ios::binary | std::ios::app) << "more";
    const fs::path out2 = tmp / "changed.zip";
    taco::io::File file = taco::io::File::create_exclusive(out2);
    ZipWriter zip(file.fd(), out2.string());
    try {
        zip.add_file("DATA/changed", opened, src.string());
        ADD_FAILURE() << "a file that changed during its copy was stored";
    } catch (const taco::IoError& e) {
        EXPECT_NE(std::string(e.what()).find("big.bin changed while"), std::string::npos)
            << e.what();
    }
    ::close(opened.fd);
    EXPECT_THROW(zip.add_bytes("b", "y"), std::logic_error);  // the archive is to be discarded
}

// Another process storing into a source through a shared mapping changes its bytes without
// changing its size or mtime, so nothing about the source can vouch for a CRC summed at another
// moment than the copy. The CRC comes from the archive: whatever mix of old and new bytes the
// copy caught, the entry's CRC is theirs (before, 6 runs of 6 stored CRCs of other bytes).
TEST(ZipWriter, ASourceRewrittenThroughAMappingStillGetsTheCrcOfItsStoredBytes) {
    TempDir tmp;
    const size_t n = size_t{1} << 20;
    const fs::path src = tmp / "mapped.bin";
    std::ofstream(src, std::ios::binary).write(std::string(n, 'a').data(), n);
    const int fd = ::open(src.c_str(), O_RDWR | O_CLOEXEC);
    ASSERT_GE(fd, 0);
    auto* map =
        static_cast<uint8_t*>(::mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0));
    ASSERT_NE(map, MAP_FAILED);
    for (size_t i = 0; i < n; i += 4096)
        map[i] = 'b';  // every page dirty: later stores leave mtime
    std::atomic<bool> stop{false};
    std::thread writer([&] {
        for (uint8_t v = 0; !stop.load(std::memory_order_relaxed); ++v)
            for (size_t i = 0; i < n; i += 512) map[i] = v;
    });
    const fs::path out = tmp / "mapped.zip";
    bool refused = false;
    {
        taco::io::File file = taco::io::File::create_exclusive(out);
        ZipWriter zip(file.fd(), out.string());
        for (int k = 0; k < 24 && !refused; ++k) {
            try {
                zip.add_file("DATA/m" + std::to_string(k), src);
            } catch (const taco::IoError& e) {
                // Seen as changed (writeback made a store update mtime): refused, which is as
                // good; such an archive is discarded.
                EXPECT_NE(std::string(e.what()).find("changed while"), std::string::npos);
                refused = true;
            }
        }
        stop = true;
        writer.join();
        if (!refused) zip.finish();
        file.close();
    }
    ::munmap(map, n);
    ::close(fd);
    if (refused) return;
    const taco::io::File in = taco::io::File::open_read(out);
    const auto dir = taco::format::read_zip_directory(in, out.string());
    ASSERT_GT(dir.size(), 0u);
    for (size_t i = 0; i < dir.size(); ++i) {
        std::string got(dir[i].uncompressed_size, '\0');
        in.read_at(dir[i].data_offset, got.data(), got.size());
        EXPECT_EQ(taco::io::crc32(0, got.data(), got.size()), dir[i].crc) << dir[i].name;
    }
}
