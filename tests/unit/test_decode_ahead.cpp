// raster::DecodeAhead (what Python's iter_arrays runs on): rasters decoded on native threads a
// bounded window ahead of one consumer, handed out in path order, a failure raised when the
// consumer reaches it, and the workers joined however early the consumer stops.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <memory>

#include "raster/decode_ahead.hpp"
#include "taco/errors.hpp"

using namespace taco;
using namespace std::chrono_literals;

namespace {

std::string geotiff(const std::string& name) {
    return std::string(TACO_FIXTURES_DIR) + "/tacotoolbox/geotiffs/" + name + ".tif";
}

// next() until a raster comes (it returns nullopt while the next one is still being decoded).
std::optional<raster::Raster> take(raster::DecodeAhead& it) {
    while (!it.done()) {
        if (auto r = it.next(50ms)) return r;
    }
    return std::nullopt;
}

}  // namespace

TEST(DecodeAhead, HandsOutEveryRasterInPathOrder) {
    const std::string a = geotiff("single_band_128x128"), b = geotiff("categorical_128x128");
    const raster::Raster ra = raster::decode(a), rb = raster::decode(b);
    std::vector<std::string> paths;
    for (int i = 0; i < 25; ++i) paths.push_back(i % 3 ? a : b);
    for (unsigned threads : {1u, 2u, 4u}) {
        for (size_t window : {1u, 2u, 7u}) {
            raster::DecodeAhead it(paths, threads, window);
            EXPECT_EQ(it.size(), paths.size());
            for (size_t i = 0; i < paths.size(); ++i) {
                const auto r = take(it);
                ASSERT_TRUE(r) << i;
                const raster::Raster& want = i % 3 ? ra : rb;
                EXPECT_EQ(r->dtype, want.dtype) << i;
                EXPECT_TRUE(r->data == want.data)
                    << "path " << i << ", " << threads << " threads, window " << window;
            }
            EXPECT_TRUE(it.done());
            EXPECT_FALSE(it.next(1ms));
        }
    }
}

TEST(DecodeAhead, AFailureComesWhenReachedAndEndsTheIteration) {
    const std::string a = geotiff("single_band_128x128");
    raster::DecodeAhead it({a, a, "/nonexistent/broken.tif", a, a}, 2, 4);
    ASSERT_TRUE(take(it));
    ASSERT_TRUE(take(it));
    try {
        take(it);
        ADD_FAILURE() << "the third path cannot be decoded";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find("/nonexistent/broken.tif"), std::string::npos)
            << e.what();
    }
    EXPECT_TRUE(it.done());  // nothing after the failure is handed out
    EXPECT_FALSE(it.next(1ms));
}

TEST(DecodeAhead, StoppingEarlyJoinsTheWorkers) {
    const std::string a = geotiff("single_band_128x128");
    std::vector<std::string> paths(500, a);
    auto it = std::make_unique<raster::DecodeAhead>(paths, 2, 4);
    ASSERT_TRUE(take(*it));
    it.reset();  // joins with at most the window in flight (a hang here fails by timeout)
    raster::DecodeAhead none({}, 2, 4);
    EXPECT_TRUE(none.done());
}
