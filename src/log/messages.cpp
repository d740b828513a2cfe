#include "log/messages.hpp"

#include <cpl_error.h>

#include <atomic>
#include <memory>
#include <mutex>

namespace taco {
namespace {

std::shared_ptr<const LogHandler>& handler_slot() {
    static std::shared_ptr<const LogHandler> slot;
    return slot;
}

std::mutex& handler_mutex() {
    static std::mutex m;
    return m;
}

// CPLErrorHandler: CPLGetLastErrorMsg() is set before this runs, so failures stay readable by
// the code that reports them; only the printing is replaced.
void CPL_STDCALL on_gdal_message(CPLErr level, CPLErrorNum, const char* message) {
    if (level == CE_Warning) {
        log::emit(LogLevel::Warning, "GDAL", message ? message : "");
    } else if (level == CE_Debug) {
        log::emit(LogLevel::Debug, "GDAL", message ? message : "");
    }
}

}  // namespace

void set_log_handler(LogHandler handler) {
    auto next = handler ? std::make_shared<const LogHandler>(std::move(handler)) : nullptr;
    std::lock_guard lock(handler_mutex());
    handler_slot() = std::move(next);
}

namespace log {

void route_gdal_messages() {
    // A flag, not std::call_once: in a program that loads GDAL on first use, this call's
    // CPLSetErrorHandler may be GDAL's first call, which loads GDAL and calls this again
    // (taco_gdal_after_load below) on the same thread. Setting the same handler twice is harmless.
    static std::atomic<bool> routed{false};
    if (routed.load(std::memory_order_acquire)) return;
    CPLSetErrorHandler(on_gdal_message);
    routed.store(true, std::memory_order_release);
}

void emit(LogLevel level, std::string_view source, std::string_view message) {
    std::shared_ptr<const LogHandler> handler;
    {
        std::lock_guard lock(handler_mutex());
        handler = handler_slot();
    }
    if (handler) (*handler)(level, source, message);
}

}  // namespace log
}  // namespace taco

// Called by src/gdal_lazy/ once it has loaded GDAL in a program that loads it on first use (the
// `taco` program): GDAL's messages are routed from its first call on, as they are where GDAL is
// linked and `load()` or a raster path routes them before any call.
extern "C" void taco_gdal_after_load() noexcept {
    taco::log::route_gdal_messages();
}
