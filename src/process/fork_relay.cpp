#include "process/fork_relay.hpp"

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>

#include "process/fork_generation.hpp"

namespace taco::process {
namespace {

// One per forked child that needs it, made and used only by that child's forking thread (the
// only caller that is ever relayed), so the pointer itself needs no lock. It is never freed: a
// later fork leaves its thread behind and the next child makes its own.
struct Relay {
    std::mutex mutex;
    std::condition_variable changed;
    const std::function<void()>* job = nullptr;
    std::exception_ptr error;
    bool done = false;

    void serve() {
        std::unique_lock lock(mutex);
        while (true) {
            changed.wait(lock, [&] { return job != nullptr; });
            const std::function<void()>* current = job;
            lock.unlock();
            std::exception_ptr caught;
            try {
                (*current)();
            } catch (...) {
                caught = std::current_exception();
            }
            lock.lock();
            error = caught;
            job = nullptr;
            done = true;
            changed.notify_all();
        }
    }

    void run(const std::function<void()>& work) {
        std::unique_lock lock(mutex);
        job = &work;
        done = false;
        changed.notify_all();
        changed.wait(lock, [&] { return done; });
        if (std::exception_ptr e = std::exchange(error, nullptr)) std::rethrow_exception(e);
    }
};

Relay* g_relay = nullptr;
uint64_t g_relay_generation = 0;

}  // namespace

void run_off_forking_thread(const std::function<void()>& job) {
    if (!on_forking_thread()) {
        job();
        return;
    }
    if (!g_relay || g_relay_generation != fork_generation()) {
        g_relay = new Relay;  // the previous one, if any, belongs to an ancestor process
        g_relay_generation = fork_generation();
        std::thread([relay = g_relay] { relay->serve(); }).detach();
    }
    g_relay->run(job);
}

}  // namespace taco::process
