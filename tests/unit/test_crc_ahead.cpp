// CrcAhead (src/io/crc_ahead.*): the CRCs folder2zip and create write into local headers before the
// kernel copies the bytes. Each must be the CRC of exactly the file it names, and anything the
// helper cannot vouch for must come back empty so the copier reads the file itself.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "io/crc32.hpp"
#include "io/crc_ahead.hpp"

namespace fs = std::filesystem;
using taco::io::CrcAhead;

namespace {

class CrcAheadTest : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("taco_crc_ahead_" + std::to_string(::getpid()) + "_" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }

    // A file of `n` pseudo-random bytes; returns its path.
    std::string make(const std::string& name, size_t n, unsigned seed) {
        std::string bytes(n, '\0');
        std::mt19937 rng(seed);
        for (char& c : bytes) c = static_cast<char>(rng());
        const fs::path p = dir_ / name;
        std::ofstream(p, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(n));
        contents_[p.string()] = bytes;
        return p.string();
    }
    uint32_t crc_of(const std::string& path) {
        const std::string& b = contents_.at(path);
        return taco::io::crc32(0, b.data(), b.size());
    }

    fs::path dir_;
    std::map<std::string, std::string> contents_;
};

TEST_F(CrcAheadTest, SumsEveryFileInOrderAndSaysWhichFile) {
    std::vector<std::string> paths;
    // More files than the helper may run ahead (32), sizes across its 256 KiB read chunk.
    for (unsigned i = 0; i < 40; ++i)
        paths.push_back(make("f" + std::to_string(i), 1000 + i * 37'000, i));
    CrcAhead ahead(paths, 0);
    for (size_t i = 0; i < paths.size(); ++i) {
        const auto r = ahead.take(i);
        ASSERT_TRUE(r.has_value()) << paths[i];
        EXPECT_EQ(r->crc, crc_of(paths[i])) << paths[i];
        EXPECT_EQ(r->size, contents_.at(paths[i]).size());
        struct stat st {};
        ASSERT_EQ(::stat(paths[i].c_str(), &st), 0);
        EXPECT_EQ(r->inode, static_cast<uint64_t>(st.st_ino));
        EXPECT_EQ(r->device, static_cast<uint64_t>(st.st_dev));
    }
    EXPECT_FALSE(ahead.take(paths.size()).has_value());  // past the end: nothing, no wait
}

TEST_F(CrcAheadTest, WhatItCannotVouchForComesBackEmpty) {
    const std::string big = make("big", 300'000, 1);
    const std::string small = make("small", 100, 2);
    fs::create_directory(dir_ / "a_dir");
    const std::vector<std::string> paths = {
        big, small, (dir_ / "missing").string(), (dir_ / "a_dir").string(), "", big};
    CrcAhead ahead(paths, 256 * 1024);
    EXPECT_EQ(ahead.take(0)->crc, crc_of(big));
    EXPECT_FALSE(ahead.take(1).has_value());  // below min_size: the writer sums it anyway
    EXPECT_FALSE(ahead.take(2).has_value());  // cannot be opened
    EXPECT_FALSE(ahead.take(3).has_value());  // not a regular file
    EXPECT_FALSE(ahead.take(4).has_value());  // no path (a ZIP member, a remote sample)
    EXPECT_EQ(ahead.take(5)->crc, crc_of(big));
}

TEST_F(CrcAheadTest, SkippedIndicesAreReleasedAndAnUnfinishedRunStopsCleanly) {
    std::vector<std::string> paths;
    for (unsigned i = 0; i < 100; ++i) paths.push_back(make("f" + std::to_string(i), 4096, i));
    {
        CrcAhead ahead(paths, 0);
        // Jumping ahead releases the slots passed over, so the helper is not held back by them.
        EXPECT_EQ(ahead.take(50)->crc, crc_of(paths[50]));
        EXPECT_EQ(ahead.take(99)->crc, crc_of(paths[99]));
    }
    {
        CrcAhead ahead(paths, 0);
        EXPECT_EQ(ahead.take(0)->crc, crc_of(paths[0]));
        // Destroyed while the helper waits for room (the copier failed): it must not hang.
    }
}

}  // namespace
