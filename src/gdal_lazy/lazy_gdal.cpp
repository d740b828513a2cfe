// Loads GDAL the first time a program linked with lazy_gdal.S calls one of its functions, and fills
// every entry point's slot with the real function. Thread-safe: concurrent first calls wait for one
// load. A fork waits for a load in progress, so no child starts with the loader half done.
#include <dlfcn.h>
#include <pthread.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#ifndef TACO_GDAL_SONAME
#error "TACO_GDAL_SONAME (the soname of the GDAL library linked against) comes from CMakeLists.txt"
#endif

#define TACO_HIDDEN __attribute__((visibility("hidden")))

extern "C" {
// Defined by lazy_gdal.S: the slots, in gdal_symbols.def's order.
TACO_HIDDEN extern void* taco_gdal_slots[];
TACO_HIDDEN extern void* taco_gdal_slots_end[];
TACO_HIDDEN void* taco_gdal_resolve(void** slot) noexcept;
bool taco_gdal_lazy_unloaded() noexcept;
// The library's hook for a freshly loaded GDAL (src/log/messages.cpp routes GDAL's messages); weak,
// so this file links without it.
void taco_gdal_after_load() noexcept __attribute__((weak));
}

namespace {

#define TACO_GDAL_SYMBOL(name) #name,
constexpr const char* kSymbols[] = {
#include "gdal_symbols.def"
};
#undef TACO_GDAL_SYMBOL
constexpr size_t kSymbolCount = sizeof(kSymbols) / sizeof(kSymbols[0]);

std::mutex g_load_mutex;
std::atomic<bool> g_loaded{false};

// The library is the one the build linked against, found the way the dynamic linker would have
// found it at start-up. Without it no GDAL call can be made, and none can report an error
// through its own return value: the process stops with the reason, as it would have at start-up.
[[noreturn]] void fail(const char* what, const char* detail) {
    std::fprintf(stderr, "tacocore: cannot load GDAL (%s): %s: %s\n", TACO_GDAL_SONAME, what,
                 detail ? detail : "unknown error");
    std::fflush(stderr);
    std::abort();
}

void load_all() {
    if (static_cast<size_t>(taco_gdal_slots_end - taco_gdal_slots) != kSymbolCount)
        fail("internal", "lazy_gdal.S and lazy_gdal.cpp disagree on the number of symbols");
    void* gdal = ::dlopen(TACO_GDAL_SONAME, RTLD_LAZY | RTLD_LOCAL);
    if (!gdal) fail("dlopen", ::dlerror());
    for (size_t i = 0; i < kSymbolCount; ++i) {
        void* fn = ::dlsym(gdal, kSymbols[i]);
        if (!fn) fail(kSymbols[i], ::dlerror());
        __atomic_store_n(&taco_gdal_slots[i], fn, __ATOMIC_RELEASE);
    }
    g_loaded.store(true, std::memory_order_release);
    // Its GDAL calls go straight through the filled slots.
    if (taco_gdal_after_load) taco_gdal_after_load();
}

void lock_before_fork() {
    g_load_mutex.lock();
}
void unlock_after_fork() {
    g_load_mutex.unlock();
}

// Registered while the program starts, before any thread could be loading.
[[maybe_unused]] const bool g_fork_guard = [] {
    ::pthread_atfork(&lock_before_fork, &unlock_after_fork, &unlock_after_fork);
    return true;
}();

}  // namespace

void* taco_gdal_resolve(void** slot) noexcept {
    if (!g_loaded.load(std::memory_order_acquire)) {
        std::lock_guard lock(g_load_mutex);
        if (!g_loaded.load(std::memory_order_relaxed)) load_all();
    }
    return __atomic_load_n(slot, __ATOMIC_ACQUIRE);
}

// True while GDAL has not been loaded in a program that loads it on first use; the library asks
// (through a weak reference, absent where GDAL is linked as usual) before warming GDAL up.
bool taco_gdal_lazy_unloaded() noexcept {
    return !g_loaded.load(std::memory_order_acquire);
}
