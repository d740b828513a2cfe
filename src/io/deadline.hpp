// A time limit for work that may run away (a user's SQL query): after `seconds` a helper thread
// calls `on_expiry` (which interrupts the work, e.g. DuckDB's duckdb_interrupt), unless the
// Deadline was destroyed first. Used by `taco sql --timeout` and the sandboxed reader sessions.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace taco::io {

class Deadline {
  public:
    /// No limit when `seconds` <= 0.
    Deadline(double seconds, std::function<void()> on_expiry);
    ~Deadline();  // stops the timer; on_expiry never runs after it returns
    Deadline(const Deadline&) = delete;
    Deadline& operator=(const Deadline&) = delete;

    /// True once on_expiry has been called.
    bool expired() const { return expired_.load(); }

  private:
    std::mutex mutex_;
    std::condition_variable done_;
    bool finished_ = false;
    std::atomic<bool> expired_{false};
    std::thread thread_;
};

}  // namespace taco::io
