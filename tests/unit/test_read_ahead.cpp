// io::ReadAhead: every file exactly once and in order, whatever thread read it; small files
// loaded with their CRC, large ones left open for streaming; failures kept for the taker.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/crc32.hpp"
#include "io/file.hpp"
#include "io/read_ahead.hpp"
#include "taco/errors.hpp"
#include "test_util.hpp"

namespace fs = std::filesystem;
using taco::io::ReadAhead;
using taco::io::SourceFile;
using taco::test::contains;
using taco::test::error_of;
using taco::test::TempDir;

namespace {

void write_bytes(const fs::path& path, const std::string& data) {
    fs::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary);
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
}

std::vector<const fs::path*> pointers(const std::vector<fs::path>& paths) {
    std::vector<const fs::path*> out;
    for (const auto& p : paths) out.push_back(&p);
    return out;
}

// The bytes of a taken file, whether it was loaded or left open.
std::string bytes_of(const SourceFile& f) {
    if (f.loaded) return std::string(reinterpret_cast<const char*>(f.contents), f.st.st_size);
    std::string out(static_cast<size_t>(f.st.st_size), '\0');
    taco::io::pread_exact(f.fd, 0, out.data(), out.size(), "test");
    return out;
}

}  // namespace

// More files than the window, in two directories, so slots are reused and the directory cache
// switches; some files are empty.
TEST(ReadAhead, TakesEveryFileInOrderWithItsBytes) {
    TempDir tmp;
    std::vector<fs::path> paths;
    std::vector<std::string> contents;
    for (size_t i = 0; i < 3 * ReadAhead::kWindow + 5; ++i) {
        const fs::path dir = tmp.path() / (i % 50 < 25 ? "a" : "b");
        paths.push_back(dir / ("f" + std::to_string(i)));
        contents.push_back(i % 7 == 0 ? std::string()
                                      : std::string(i * 13 % 5000 + 1, 'a' + i % 26));
        write_bytes(paths.back(), contents.back());
    }
    ReadAhead ahead(pointers(paths));
    ASSERT_EQ(ahead.size(), paths.size());
    for (size_t i = 0; i < paths.size(); ++i) {
        const SourceFile& f = ahead.take(i);
        ASSERT_FALSE(f.error) << i;
        EXPECT_TRUE(f.loaded) << i;
        EXPECT_EQ(f.fd, -1) << "loaded files are closed";
        EXPECT_EQ(bytes_of(f), contents[i]) << i;
        EXPECT_EQ(f.crc, taco::io::crc32(0, contents[i].data(), contents[i].size())) << i;
        EXPECT_EQ(ahead.path(i), paths[i]);
    }
}

TEST(ReadAhead, LeavesLargeFilesOpenForStreaming) {
    TempDir tmp;
    const std::string big(ReadAhead::kMaxLoaded + 1, 'x');
    std::vector<fs::path> paths = {tmp.path() / "small", tmp.path() / "big", tmp.path() / "last"};
    write_bytes(paths[0], "s");
    write_bytes(paths[1], big);
    write_bytes(paths[2], "l");
    ReadAhead ahead(pointers(paths));
    EXPECT_TRUE(ahead.take(0).loaded);
    const SourceFile& f = ahead.take(1);
    ASSERT_FALSE(f.error);
    EXPECT_FALSE(f.loaded);
    ASSERT_GE(f.fd, 0);
    EXPECT_EQ(bytes_of(f), big);
    EXPECT_EQ(bytes_of(ahead.take(2)), "l");
}

// A failure is the taker's to throw, with the message opening the file in place would give, and
// the files after it are still taken normally.
TEST(ReadAhead, KeepsFailuresForTheTaker) {
    TempDir tmp;
    std::vector<fs::path> paths = {tmp.path() / "ok", tmp.path() / "missing", tmp.path() / "dir",
                                   tmp.path() / "after"};
    write_bytes(paths[0], "1");
    fs::create_directory(paths[2]);
    write_bytes(paths[3], "2");
    ReadAhead ahead(pointers(paths));
    EXPECT_EQ(bytes_of(ahead.take(0)), "1");
    const SourceFile& missing = ahead.take(1);
    ASSERT_TRUE(missing.error);
    const std::string msg = error_of<taco::IoError>([&] { std::rethrow_exception(missing.error); });
    EXPECT_TRUE(contains(msg, "cannot open '" + paths[1].string() + "': No such file")) << msg;
    const SourceFile& dir = ahead.take(2);
    EXPECT_FALSE(dir.error);
    EXPECT_FALSE(dir.loaded) << "not a regular file: left to the taker to refuse";
    EXPECT_TRUE(S_ISDIR(dir.st.st_mode));
    EXPECT_EQ(bytes_of(ahead.take(3)), "2");
}

TEST(ReadAhead, RefusesOutOfOrderTakes) {
    TempDir tmp;
    std::vector<fs::path> paths = {tmp.path() / "a", tmp.path() / "b"};
    for (const auto& p : paths) write_bytes(p, "x");
    ReadAhead ahead(pointers(paths));
    EXPECT_THROW(ahead.take(1), std::logic_error);
    ahead.take(0);
    EXPECT_THROW(ahead.take(0), std::logic_error);
    ahead.take(1);
    EXPECT_THROW(ahead.take(2), std::logic_error);
}

// Destroying it with files not taken (an error mid-way) stops the thread and closes what it holds.
TEST(ReadAhead, StopsEarlyWithoutLeakingDescriptors) {
    TempDir tmp;
    std::vector<fs::path> paths;
    for (size_t i = 0; i < 2 * ReadAhead::kWindow; ++i) {
        paths.push_back(tmp.path() / ("f" + std::to_string(i)));
        write_bytes(paths.back(), std::string(i % 2 ? ReadAhead::kMaxLoaded + 1 : 10, 'z'));
    }
    const auto open_fds = [] {
        size_t n = 0;
        for (const auto& e : fs::directory_iterator("/proc/self/fd")) n += e.exists() ? 1 : 0;
        return n;
    };
    const size_t before = open_fds();
    {
        ReadAhead ahead(pointers(paths));
        ahead.take(0);
        ahead.take(1);
    }
    EXPECT_EQ(open_fds(), before);
}
