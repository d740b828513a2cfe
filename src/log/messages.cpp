#include "log/messages.hpp"

#include <cpl_error.h>

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
    static std::once_flag once;
    std::call_once(once, [] { CPLSetErrorHandler(on_gdal_message); });
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
