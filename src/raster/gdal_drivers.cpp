#include "raster/gdal_drivers.hpp"

#include <cpl_error.h>
#include <cpl_vsi.h>
#include <gdal.h>
#include <pthread.h>

#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "log/messages.hpp"
#include "raster/decode.hpp"
#include "raster/warm_up_tiff.hpp"

namespace taco::raster {
namespace {

std::once_flag g_registered;

// The first raster GDAL opens in a process costs ~0.3 ms more than the next ones: the GTiff
// driver's one-time set-up, the block cache sizing itself, code run for the first time. A tiny
// GeoTIFF decoded from memory pays it here, on the helper thread, instead of the dataset's first
// read_array (`decode_first` in docs/PERFORMANCE.md). Quiet: a GDAL without ZSTD just skips it.
void warm_up_decoder() noexcept {
    const char* name = "/vsimem/tacocore_warm_up.tif";
    VSILFILE* f = VSIFileFromMemBuffer(name, const_cast<GByte*>(kWarmUpTiff), kWarmUpTiffSize,
                                       FALSE);  // GDAL reads the static bytes in place
    if (!f) return;
    VSIFCloseL(f);
    CPLPushErrorHandler(CPLQuietErrorHandler);
    try {
        std::vector<uint8_t> pixels;
        decode_reusing(name, pixels);
    } catch (...) {
    }
    CPLPopErrorHandler();
    VSIUnlink(name);
}

// The helper thread of register_drivers_in_background(), joined before a fork and at exit.
class BackgroundRegistration {
  public:
    void start() {
        std::lock_guard lock(mutex_);
        if (started_) return;
        started_ = true;
        // Before the thread exists, so no fork can come between them unwaited.
        ::pthread_atfork(&BackgroundRegistration::before_fork, nullptr, nullptr);
        thread_ = std::thread([] {
            register_drivers();
            warm_up_decoder();
        });
    }
    void wait() {
        std::lock_guard lock(mutex_);
        if (thread_.joinable()) thread_.join();
    }
    ~BackgroundRegistration() { wait(); }

    static BackgroundRegistration& instance() {
        static BackgroundRegistration b;
        return b;
    }

  private:
    static void before_fork() { instance().wait(); }

    std::mutex mutex_;
    std::thread thread_;
    bool started_ = false;
};

}  // namespace

void register_drivers() {
    std::call_once(g_registered, [] {
        log::route_gdal_messages();
        GDALAllRegister();
    });
}

// Defined in programs that load GDAL on first use (src/gdal_lazy/, the `taco` program): true
// until something calls GDAL. A weak reference, so null where GDAL is linked as usual.
extern "C" bool taco_gdal_lazy_unloaded() noexcept __attribute__((weak));

void register_drivers_in_background() {
    // Warm up a GDAL the process has loaded; loading one only to warm it up would cost such a
    // program the ~38 ms it saved at start-up, for commands that may never decode.
    if (taco_gdal_lazy_unloaded && taco_gdal_lazy_unloaded()) return;
    BackgroundRegistration::instance().start();
}

}  // namespace taco::raster
