// A one-line progress bar on stderr, shown only when stderr is a terminal (quiet when piped).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace taco::cli {

class ProgressBar {
  public:
    /// `enabled` is further limited to terminals.
    explicit ProgressBar(bool enabled);
    ~ProgressBar();
    bool enabled() const { return enabled_; }
    /// Redraws at most ~10 times a second.
    void update(uint64_t done, uint64_t total, const std::string& detail);
    void finish();

  private:
    bool enabled_;
    bool drawn_ = false;
    std::chrono::steady_clock::time_point last_{};
};

/// "1.5 GiB", "12.0 KiB", "512 B".
std::string human_bytes(uint64_t bytes);

}  // namespace taco::cli
