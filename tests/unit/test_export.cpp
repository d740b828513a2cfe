// export_dataset / convert_dataset through the C++ API (issue 16), and the ZipWriter range copy
// they rely on. The CLI and tacoreader round trips are in tests/cli/test_cli_export.py.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "format/zip_reader.hpp"
#include "format/zip_writer.hpp"
#include "io/crc32.hpp"
#include "io/file.hpp"
#include "taco/convert.hpp"
#include "taco/dataset.hpp"
#include "taco/errors.hpp"

#include "test_util.hpp"

namespace fs = std::filesystem;
using taco::test::TempDir;

namespace {

const std::string kFixtures = TACO_FIXTURES_DIR;
const std::string kNestedZip = kFixtures + "/tacoreader/zip/nested/nested.tacozip";
const std::string kNestedFolder = kFixtures + "/tacoreader/folder/nested";
const std::string kFlatZip = kFixtures + "/tacoreader/zip/flat/flat.tacozip";

std::string slurp(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST(ZipWriterRange, CopiesTheRangeWithItsCrc) {
    TempDir tmp;
    const int mfd = memfd_create("range_test", MFD_CLOEXEC);
    ASSERT_GE(mfd, 0);
    std::string content(9 << 20, '\0');  // straddles the writer's 4 MiB buffer
    for (size_t i = 0; i < content.size(); ++i) content[i] = static_cast<char>((i * 7919) >> 3);
    ASSERT_EQ(write(mfd, content.data(), content.size()), static_cast<ssize_t>(content.size()));
    const uint64_t offset = 12345, size = (5 << 20) + 17;
    {
        taco::io::File out = taco::io::File::create_exclusive(tmp / "r.zip");
        taco::format::ZipWriter zip(out.fd(), "r.zip");
        zip.add_fd_range("DATA/x", mfd, offset, size, "memfd");
        EXPECT_THROW(zip.add_fd_range("DATA/y", mfd, content.size() - 3, 10, "memfd"),
                     taco::IoError);
        out.close();
    }
    {
        taco::io::File out = taco::io::File::create_exclusive(tmp / "ok.zip");
        taco::format::ZipWriter zip(out.fd(), "ok.zip");
        zip.add_fd_range("DATA/x", mfd, offset, size, "memfd");
        zip.finish();
        out.close();
    }
    close(mfd);
    const taco::io::File in = taco::io::File::open_read(tmp / "ok.zip");
    const auto dir = taco::format::read_zip_directory(in, "ok.zip");
    ASSERT_EQ(dir.size(), 1u);
    EXPECT_EQ(dir[0].uncompressed_size, size);
    EXPECT_EQ(dir[0].crc, taco::io::crc32(0, content.data() + offset, size));
    EXPECT_EQ(slurp(tmp / "ok.zip").substr(dir[0].data_offset, size), content.substr(offset, size));
}

TEST(Export, NestedSubsetGetsTheRightBytesDespiteTheReferenceOffsets) {
    TempDir tmp;
    const taco::Dataset ds = taco::load(kNestedZip);
    const auto view = ds.sql("SELECT * FROM data WHERE id = 'europe'");
    const taco::ExportResult r = taco::export_dataset(view, tmp / "eu");
    EXPECT_EQ(r.format, taco::ContainerFormat::Folder);
    EXPECT_EQ(r.level_rows, (std::vector<size_t>{1, 3}));
    EXPECT_EQ(r.files, 3u);
    for (const char* item : {"item_0", "item_1", "item_2"}) {
        EXPECT_EQ(slurp(tmp / "eu" / "DATA" / "europe" / item),
                  slurp(fs::path(kNestedFolder) / "DATA" / "europe" / item))
            << item;
    }
    EXPECT_FALSE(fs::exists(tmp / "eu" / "DATA" / "americas"));
    const taco::Dataset back = taco::load(tmp / "eu");
    EXPECT_EQ(back.pit_schema().root_n, 1u);
    EXPECT_EQ(back.pit_schema().hierarchy.at(0).at(0).n, 3u);
    EXPECT_EQ(back.level(1).count(), 3u);
}

TEST(Export, RefusesEmptyViewsDeeperLevelsAndExistingOutputs) {
    TempDir tmp;
    const taco::Dataset ds = taco::load(kFlatZip);
    EXPECT_THROW(taco::export_dataset(ds.sql("SELECT * FROM data WHERE false"), tmp / "a.tacozip"),
                 taco::QueryError);
    EXPECT_FALSE(fs::exists(tmp / "a.tacozip"));
    const taco::Dataset nested = taco::load(kNestedZip);
    EXPECT_THROW(taco::export_dataset(nested.level(1), tmp / "b.tacozip"), taco::QueryError);
    fs::create_directory(tmp / "taken");
    EXPECT_THROW(taco::export_dataset(ds, tmp / "taken"), taco::IoError);
    EXPECT_TRUE(fs::is_empty(tmp / "taken"));
}

TEST(Convert, ZipToFolderToZipKeepsEverySampleAndTheCollection) {
    TempDir tmp;
    const auto f = taco::convert_dataset(kFlatZip, tmp / "flat");
    EXPECT_EQ(f.format, taco::ContainerFormat::Folder);
    const auto z = taco::convert_dataset(tmp / "flat", tmp / "flat.tacozip");
    EXPECT_EQ(z.format, taco::ContainerFormat::Zip);
    EXPECT_EQ(z.sample_bytes, f.sample_bytes);
    const taco::Dataset a = taco::load(kFlatZip), b = taco::load(tmp / "flat.tacozip");
    EXPECT_EQ(a.collection_json(), b.collection_json());
    for (size_t i = 0; i < 5; ++i) {
        const std::string name = "sample_" + std::to_string(i);
        EXPECT_EQ(slurp(tmp / "flat" / "DATA" / name),
                  slurp(fs::path(kFixtures) / "tacoreader/folder/flat/DATA" / name));
    }
}
