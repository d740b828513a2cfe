// GDAL's driver registration started in the background by load(): a process forked right after
// (a DataLoader worker) must not inherit it half done.
#include <cpl_vsi.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include "raster/decode.hpp"
#include "raster/gdal_drivers.hpp"
#include "raster/warm_up_tiff.hpp"

using namespace taco;

namespace {

std::string geotiff(const std::string& name) {
    return std::string(TACO_FIXTURES_DIR) + "/tacotoolbox/geotiffs/" + name + ".tif";
}

// In a fresh process (the death test re-runs the binary): starts the background registration,
// forks in the middle of it, and reports whether the child could decode a raster within 20 s.
// A child forked while the helper holds one of GDAL's locks (its driver manager's, a driver's
// own) would inherit the lock held by no thread and hang at its first open; the fork handler
// makes the fork wait for the helper. (glibc's once-flags are fork-aware, GDAL's locks are not;
// the window is small, so this test guards the wait rather than reproducing every hang.)
[[noreturn]] void fork_during_background_registration() {
    raster::register_drivers_in_background();
    ::usleep(1000);  // the registration takes ~3 ms: fork in the middle of it
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::alarm(20);
        const raster::Raster r = raster::decode(geotiff("single_band_128x128"));
        if (r.data.empty()) ::_exit(3);
        // The fork waited for the whole helper: its warm-up decode too, whose file is gone.
        VSIStatBufL st;
        ::_exit(VSIStatL("/vsimem/tacocore_warm_up.tif", &st) == 0 ? 6 : 0);
    }
    int status = 0;
    if (pid < 0 || ::waitpid(pid, &status, 0) != pid) ::_exit(4);
    ::_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 5);
}

}  // namespace

TEST(GdalDrivers, AChildForkedDuringBackgroundRegistrationCanOpenRasters) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(fork_during_background_registration(), ::testing::ExitedWithCode(0), "");
}

TEST(GdalDrivers, RegisteringAgainAfterTheBackgroundStartIsHarmless) {
    raster::register_drivers_in_background();
    raster::register_drivers();
    raster::register_drivers_in_background();
    EXPECT_EQ(raster::decode(geotiff("single_band_128x128")).height, 128);
}

// The helper's warm-up decodes these bytes; if GDAL could not, it would silently warm nothing.
TEST(GdalDrivers, TheWarmUpGeoTiffDecodes) {
    raster::register_drivers();
    const char* name = "/vsimem/test_warm_up.tif";
    VSIFCloseL(VSIFileFromMemBuffer(name, const_cast<GByte*>(raster::kWarmUpTiff),
                                    raster::kWarmUpTiffSize, FALSE));
    const raster::Raster r = raster::decode(name);
    VSIUnlink(name);
    ASSERT_EQ(r.bands, 1);
    ASSERT_EQ(r.height, 16);
    ASSERT_EQ(r.width, 16);
    ASSERT_EQ(r.dtype, "uint16");
    const auto* px = reinterpret_cast<const uint16_t*>(r.data.data());
    for (int i = 0; i < 256; ++i) EXPECT_EQ(px[i], i);
}
