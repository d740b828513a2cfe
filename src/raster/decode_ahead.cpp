#include "raster/decode_ahead.hpp"

#include <algorithm>

namespace taco::raster {

DecodeAhead::DecodeAhead(std::vector<std::string> paths, unsigned threads, size_t window)
    : paths_(std::move(paths)), window_(std::max<size_t>(window, 1)), slots_(window_) {
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    const size_t n = std::min<size_t>(threads, paths_.size());
    workers_.reserve(n);
    for (size_t i = 0; i < n; ++i) workers_.emplace_back([this] { work(); });
}

DecodeAhead::~DecodeAhead() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    room_.notify_all();
    for (std::thread& t : workers_) t.join();
}

void DecodeAhead::work() {
    for (;;) {
        size_t i;
        {
            std::unique_lock lock(mutex_);
            room_.wait(lock, [&] {
                return stop_ || started_ == paths_.size() || started_ < consumed_ + window_;
            });
            if (stop_ || started_ == paths_.size()) return;
            i = started_++;
        }
        Slot filled;
        try {
            filled.raster = decode(paths_[i]);
        } catch (...) {
            filled.error = std::current_exception();
        }
        filled.ready = true;
        {
            std::lock_guard lock(mutex_);
            slots_[i % window_] = std::move(filled);
        }
        ready_.notify_all();
    }
}

std::optional<Raster> DecodeAhead::next(std::chrono::milliseconds wait) {
    Slot taken;
    {
        std::unique_lock lock(mutex_);
        if (failed_ || consumed_ == paths_.size()) return std::nullopt;
        Slot& slot = slots_[consumed_ % window_];
        if (!ready_.wait_for(lock, wait, [&] { return slot.ready; })) return std::nullopt;
        taken = std::move(slot);
        slot = Slot{};
        ++consumed_;
        if (taken.error) {
            failed_ = true;
            stop_ = true;  // nothing after a failure is handed out: stop decoding it
        }
    }
    room_.notify_all();
    if (taken.error) std::rethrow_exception(taken.error);
    return std::move(taken.raster);
}

bool DecodeAhead::done() const {
    std::lock_guard lock(mutex_);
    return failed_ || consumed_ == paths_.size();
}

}  // namespace taco::raster
