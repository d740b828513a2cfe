// io::parallel_for: every index exactly once whatever the threads and grain, and the first
// exception reaches the caller after the workers stop.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <vector>

#include "io/parallel.hpp"
#include "test_util.hpp"

using taco::test::error_of;

namespace {

TEST(ParallelFor, VisitsEveryIndexOnce) {
    for (unsigned threads : {0u, 1u, 2u, 5u}) {
        for (size_t grain : {size_t{1}, size_t{7}, size_t{64}}) {
            std::vector<std::atomic<int>> seen(1000);
            taco::io::parallel_for(
                seen.size(), threads, [&](size_t i) { ++seen[i]; }, grain);
            for (size_t i = 0; i < seen.size(); ++i)
                ASSERT_EQ(seen[i].load(), 1) << "index " << i << ", threads " << threads;
        }
    }
    taco::io::parallel_for(0, 2, [](size_t) { FAIL() << "no index for n = 0"; });
}

TEST(ParallelFor, RethrowsTheFirstErrorAndStops) {
    std::atomic<size_t> calls{0};
    const std::string message = error_of<std::runtime_error>([&] {
        taco::io::parallel_for(100'000, 2, [&](size_t i) {
            ++calls;
            if (i == 10) throw std::runtime_error("index 10 failed");
        });
    });
    EXPECT_EQ(message, "index 10 failed");
    EXPECT_LT(calls.load(), 100'000u);
}

}  // namespace
