#include "raster/decode_ahead.hpp"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

#include "taco/errors.hpp"

namespace taco::raster {

struct DecodeAhead::State {
    struct Slot {
        std::optional<Raster> raster;
        std::exception_ptr error;
        bool ready = false;
    };
    State(std::vector<std::string> p, size_t w)
        : paths(std::move(p)), window(std::max<size_t>(w, 1)), slots(window) {}

    const std::vector<std::string> paths;
    const size_t window;
    std::vector<Slot> slots;  // path i lives in slots[i % window] until handed out
    mutable std::mutex mutex;
    std::condition_variable ready;  // a slot was filled (workers -> consumer)
    std::condition_variable room;   // a slot was emptied, or stop (consumer -> workers)
    size_t started = 0;             // paths handed to workers
    size_t consumed = 0;            // paths handed out by next()
    bool failed = false;
    bool stop = false;
    std::vector<std::thread> workers;
};

DecodeAhead::DecodeAhead(std::vector<std::string> paths, unsigned threads, size_t window)
    : state_(std::make_unique<State>(std::move(paths), window)) {
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    const size_t n = std::min<size_t>(threads, state_->paths.size());
    state_->workers.reserve(n);
    for (size_t i = 0; i < n; ++i) state_->workers.emplace_back([s = state_.get()] { work(*s); });
}

DecodeAhead::~DecodeAhead() {
    if (owner_.inherited()) {
        // Inherited through fork(): the workers are not in this process. Joining their handles
        // throws (std::terminate in a destructor), and destroying `room`, which they waited on
        // in the parent, waits for them forever. The state is the parent's copy-on-write memory.
        static_cast<void>(state_.release());
        return;
    }
    {
        std::lock_guard lock(state_->mutex);
        state_->stop = true;
    }
    state_->room.notify_all();
    for (std::thread& t : state_->workers) t.join();
}

size_t DecodeAhead::size() const {
    return state_->paths.size();
}

void DecodeAhead::work(State& s) {
    for (;;) {
        size_t i;
        {
            std::unique_lock lock(s.mutex);
            s.room.wait(lock, [&] {
                return s.stop || s.started == s.paths.size() || s.started < s.consumed + s.window;
            });
            if (s.stop || s.started == s.paths.size()) return;
            i = s.started++;
        }
        State::Slot filled;
        try {
            filled.raster = decode(s.paths[i]);
        } catch (...) {
            filled.error = std::current_exception();
        }
        filled.ready = true;
        {
            std::lock_guard lock(s.mutex);
            s.slots[i % s.window] = std::move(filled);
        }
        s.ready.notify_all();
    }
}

std::optional<Raster> DecodeAhead::next(std::chrono::milliseconds wait) {
    if (owner_.inherited()) {
        throw IoError("this array iterator was started in process " +
                      std::to_string(owner_.owner_pid()) +
                      " and this process is a fork() of it: its decoding threads stayed in the "
                      "parent. Start the iteration again in this process (iter_arrays())");
    }
    State& s = *state_;
    State::Slot taken;
    {
        std::unique_lock lock(s.mutex);
        if (s.failed || s.consumed == s.paths.size()) return std::nullopt;
        State::Slot& slot = s.slots[s.consumed % s.window];
        if (!s.ready.wait_for(lock, wait, [&] { return slot.ready; })) return std::nullopt;
        taken = std::move(slot);
        slot = State::Slot{};
        ++s.consumed;
        if (taken.error) {
            s.failed = true;
            s.stop = true;  // nothing after a failure is handed out: stop decoding it
        }
    }
    s.room.notify_all();
    if (taken.error) std::rethrow_exception(taken.error);
    return std::move(taken.raster);
}

bool DecodeAhead::done() const {
    if (owner_.inherited()) return false;  // next() says why it cannot go on
    std::lock_guard lock(state_->mutex);
    return state_->failed || state_->consumed == state_->paths.size();
}

}  // namespace taco::raster
