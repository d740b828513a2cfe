#include "process/fork_generation.hpp"

#include <pthread.h>
#include <unistd.h>

#include <atomic>

namespace taco::process {
namespace {

std::atomic<uint64_t> g_generation{0};
// Written only by the child handler, while the child has this one thread; read by its threads.
pthread_t g_forking_thread;

void count_fork_in_child() {
    // Runs in the child only, single-threaded, right after fork().
    g_forking_thread = ::pthread_self();
    g_generation.fetch_add(1, std::memory_order_release);
}

void register_fork_counter() noexcept {
    static const bool registered = ::pthread_atfork(nullptr, nullptr, &count_fork_in_child) == 0;
    (void)registered;
}

// Registered when the library loads: a process that reads a remote raster before loading any
// dataset and then forks must still make children that know they are forks. ForkOwner registers
// too, in case one is made by another library's static initializer before this one has run.
[[maybe_unused]] const bool g_counting_from_start = (register_fork_counter(), true);

}  // namespace

bool on_forking_thread() noexcept {
    return g_generation.load(std::memory_order_acquire) != 0 &&
           ::pthread_equal(::pthread_self(), g_forking_thread) != 0;
}

uint64_t fork_generation() noexcept {
    return g_generation.load(std::memory_order_relaxed);
}

ForkOwner::ForkOwner() noexcept : owner_pid_(static_cast<long>(::getpid())) {
    register_fork_counter();
    born_in_ = fork_generation();
}

}  // namespace taco::process
