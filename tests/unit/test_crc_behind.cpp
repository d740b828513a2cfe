// CrcBehind (src/io/crc_behind.*): CRCs of ranges of a file summed on a helper thread behind the
// writer. Each must be the CRC of exactly its range, delivered once, in push order; a read error
// comes back to the writer; a writer that stops early (destructor) never hangs.
#include <gtest/gtest.h>
#include <unistd.h>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "io/crc32.hpp"
#include "io/crc_behind.hpp"
#include "io/file.hpp"
#include "taco/errors.hpp"
#include "test_util.hpp"

using taco::io::CrcBehind;

namespace {

struct Fixture {
    taco::test::TempDir tmp;
    std::string bytes;
    taco::io::File file;

    explicit Fixture(size_t n) : bytes(n, '\0'), file(make(n)) {}

    taco::io::File make(size_t n) {
        std::mt19937 rng(11);
        for (char& c : bytes) c = static_cast<char>(rng());
        taco::io::File f = taco::io::File::create_exclusive(tmp / "data.bin");
        f.pwrite_all(0, bytes.data(), n);
        return f;
    }
    uint32_t crc(uint64_t offset, uint64_t size) const {
        return taco::io::crc32(0, bytes.data() + offset, size);
    }
};

}  // namespace

TEST(CrcBehind, SumsEveryRangeOnceInPushOrder) {
    Fixture f(3 << 20);
    CrcBehind behind(f.file.fd(), "data.bin");
    std::map<size_t, std::pair<uint64_t, uint64_t>> ranges;
    std::vector<std::pair<size_t, uint32_t>> got;
    // More ranges than kMaxRanges, collected as the writer goes (push waits for room).
    for (size_t k = 0; k < 3 * CrcBehind::kMaxRanges; ++k) {
        const uint64_t offset = (k * 7919) % (2 << 20);
        const uint64_t size = 1 + (k * 104729) % (1 << 20);
        ranges[k] = {offset, size};
        behind.push(k, offset, size);
        EXPECT_TRUE(behind.pending(k));
        for (const auto& r : behind.collect(false)) got.push_back(r);
    }
    for (const auto& r : behind.collect(true)) got.push_back(r);
    EXPECT_FALSE(behind.pending());
    ASSERT_EQ(got.size(), ranges.size());
    for (size_t k = 0; k < got.size(); ++k) {
        EXPECT_EQ(got[k].first, k);
        EXPECT_EQ(got[k].second, f.crc(ranges[k].first, ranges[k].second)) << k;
    }
    EXPECT_EQ(taco::io::crc_of_range(f.file.fd(), 5, 1000, "data.bin"), f.crc(5, 1000));
}

TEST(CrcBehind, AReadErrorReachesTheWriterNamingTheFile) {
    Fixture f(1 << 20);
    CrcBehind behind(f.file.fd(), "data.bin");
    behind.push(0, 0, 1000);
    behind.push(1, (1 << 20) - 10, 100);  // past the end of the file
    try {
        behind.collect(true);
        ADD_FAILURE() << "a range past the end was summed";
    } catch (const taco::IoError& e) {
        EXPECT_NE(std::string(e.what()).find("data.bin"), std::string::npos) << e.what();
    }
    behind.push(2, 0, 10);  // after a failure: ignored, and the error stays
    EXPECT_THROW(behind.collect(false), taco::IoError);
}

TEST(CrcBehind, AWriterThatStopsEarlyDoesNotWait) {
    Fixture f(4 << 20);
    {
        CrcBehind behind(f.file.fd(), "data.bin");
        for (size_t k = 0; k < 32; ++k) behind.push(k, 0, 4 << 20);
    }  // destroyed with ranges queued: returns without summing them all
    SUCCEED();
}
