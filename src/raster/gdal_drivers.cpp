#include "raster/gdal_drivers.hpp"

#include <gdal.h>
#include <pthread.h>

#include <mutex>
#include <thread>

#include "log/messages.hpp"

namespace taco::raster {
namespace {

std::once_flag g_registered;

// The helper thread of register_drivers_in_background(), joined before a fork and at exit.
class BackgroundRegistration {
  public:
    void start() {
        std::lock_guard lock(mutex_);
        if (started_) return;
        started_ = true;
        // Before the thread exists, so no fork can come between them unwaited.
        ::pthread_atfork(&BackgroundRegistration::before_fork, nullptr, nullptr);
        thread_ = std::thread([] { register_drivers(); });
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

void register_drivers_in_background() {
    BackgroundRegistration::instance().start();
}

}  // namespace taco::raster
