#include "io/cancel.hpp"

#include <atomic>
#include <map>
#include <mutex>
#include <string>

#include "taco/errors.hpp"

namespace taco::io {
namespace {
std::atomic<bool> g_cancel{false};
static_assert(std::atomic<bool>::is_always_lock_free, "signal handlers need a lock-free flag");

std::mutex& hooks_mutex() {
    static std::mutex m;
    return m;
}
std::map<size_t, std::function<void()>>& hooks() {
    static std::map<size_t, std::function<void()>> h;
    return h;
}
size_t g_next_hook = 0;
}  // namespace

size_t add_cancel_hook(std::function<void()> hook) {
    std::lock_guard lock(hooks_mutex());
    hooks().emplace(++g_next_hook, std::move(hook));
    return g_next_hook;
}

void remove_cancel_hook(size_t id) {
    std::lock_guard lock(hooks_mutex());
    hooks().erase(id);
}

void run_cancel_hooks() {
    std::lock_guard lock(hooks_mutex());
    for (auto& [id, hook] : hooks()) hook();
}

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
