#include "io/cancel.hpp"

#include <atomic>
#include <string>

#include "taco/errors.hpp"

namespace taco::io {
namespace {
std::atomic<bool> g_cancel{false};
static_assert(std::atomic<bool>::is_always_lock_free, "signal handlers need a lock-free flag");
}  // namespace

void request_cancel() noexcept {
    g_cancel.store(true, std::memory_order_relaxed);
}
void reset_cancel() noexcept {
    g_cancel.store(false, std::memory_order_relaxed);
}
bool cancel_requested() noexcept {
    return g_cancel.load(std::memory_order_relaxed);
}

void throw_if_cancelled(const char* what) {
    if (cancel_requested())
        throw IoError(std::string("interrupted while ") + what + "; nothing was written");
}

}  // namespace taco::io
