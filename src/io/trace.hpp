// Phase timing for diagnosis: with TACO_TRACE=1 in the environment, each TraceScope prints its
// wall time to stderr when it ends. Costs one getenv per process otherwise.
#pragma once

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace taco::io {

inline bool trace_enabled() {
    static const bool enabled = [] {
        const char* v = std::getenv("TACO_TRACE");
        return v && *v && *v != '0';
    }();
    return enabled;
}

class TraceScope {
  public:
    explicit TraceScope(const char* name) : name_(name) {
        if (trace_enabled()) start_ = std::chrono::steady_clock::now();
    }
    ~TraceScope() {
        if (!trace_enabled()) return;
        double ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_)
                .count();
        std::fprintf(stderr, "[taco trace] %-28s %9.1f ms\n", name_, ms);
    }
    TraceScope(const TraceScope&) = delete;
    TraceScope& operator=(const TraceScope&) = delete;

  private:
    const char* name_;
    std::chrono::steady_clock::time_point start_{};
};

}  // namespace taco::io
