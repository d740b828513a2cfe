// io::parallel_for: every index exactly once whatever the threads and grain, and the first
// exception reaches the caller after the workers stop.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>
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

TEST(ParallelFor, ReportsTheLowestFailingIndexWhateverTheTiming) {
    // Index 1 fails only after index 6 (on the other thread) has failed: the first failure in
    // time is 6's, the one reported must be 1's.
    for (int round = 0; round < 20; ++round) {
        std::atomic<bool> six_failed{false};
        const std::string message = error_of<std::runtime_error>([&] {
            taco::io::parallel_for(8, 2, [&](size_t i) {
                if (i == 1) {
                    while (!six_failed) std::this_thread::yield();
                    throw std::runtime_error("index 1 failed");
                }
                if (i == 6) {
                    six_failed = true;
                    throw std::runtime_error("index 6 failed");
                }
            });
        });
        ASSERT_EQ(message, "index 1 failed") << "round " << round;
    }
}

}  // namespace
