#include "process/fork_generation.hpp"

#include <pthread.h>
#include <unistd.h>

#include <atomic>

namespace taco::process {
namespace {

std::atomic<uint64_t> g_generation{0};

void count_fork_in_child() {
    // Runs in the child only, single-threaded, right after fork().
    g_generation.fetch_add(1, std::memory_order_relaxed);
}

// Registered before the first ForkOwner exists: no object can be made before its fork is counted.
void register_fork_counter() noexcept {
    static const bool registered = ::pthread_atfork(nullptr, nullptr, &count_fork_in_child) == 0;
    (void)registered;
}

}  // namespace

uint64_t fork_generation() noexcept {
    return g_generation.load(std::memory_order_relaxed);
}

ForkOwner::ForkOwner() noexcept : owner_pid_(static_cast<long>(::getpid())) {
    register_fork_counter();
    born_in_ = fork_generation();
}

}  // namespace taco::process
