#include "io/deadline.hpp"

#include <chrono>

namespace taco::io {

Deadline::Deadline(double seconds, std::function<void()> on_expiry) {
    if (seconds <= 0) return;
    thread_ = std::thread([this, seconds, on_expiry = std::move(on_expiry)] {
        std::unique_lock lock(mutex_);
        const auto limit = std::chrono::duration<double>(seconds);
        if (done_.wait_for(lock, limit, [this] { return finished_; })) return;
        expired_ = true;
        on_expiry();
    });
}

Deadline::~Deadline() {
    if (!thread_.joinable()) return;
    {
        std::lock_guard lock(mutex_);
        finished_ = true;
    }
    done_.notify_all();
    thread_.join();
}

}  // namespace taco::io
