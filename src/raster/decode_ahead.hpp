// Decoding many rasters on a few threads, a bounded distance ahead of one consumer that takes
// them in order: what a Python loop over `iter_arrays()` needs. Before, a Python thread pool did
// this: a future, a queue and two GIL hand-offs per sample cost 40-80 us of CPU each, enough to
// hold 1 -> 2 threads at 1.7x where the native decode scales 1.9x (issue 15, READER.md §10.1).
// Here the workers never touch Python; the consumer waits without the GIL.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "raster/decode.hpp"

namespace taco::raster {

class DecodeAhead {
  public:
    /// Starts decoding `paths` on `threads` threads (0 = all cores, never more than paths),
    /// at most `window` (>= 1) rasters ahead of what next() has handed out.
    DecodeAhead(std::vector<std::string> paths, unsigned threads, size_t window);
    /// Stops the workers (a decode already running finishes first) and joins them.
    ~DecodeAhead();
    DecodeAhead(const DecodeAhead&) = delete;
    DecodeAhead& operator=(const DecodeAhead&) = delete;

    /// The next raster in path order, waiting at most `wait` for it: nullopt when it is not
    /// decoded yet (call again; a caller polls for signals in between). `done()` tells the end.
    /// Rethrows the decode error of that path; the iteration ends there.
    std::optional<Raster> next(std::chrono::milliseconds wait);
    /// True when every raster has been handed out (or an error was).
    bool done() const;
    size_t size() const { return paths_.size(); }

  private:
    struct Slot {
        std::optional<Raster> raster;
        std::exception_ptr error;
        bool ready = false;
    };
    void work();

    const std::vector<std::string> paths_;
    const size_t window_;
    std::vector<Slot> slots_;  // path i lives in slots_[i % window_] until handed out
    mutable std::mutex mutex_;
    std::condition_variable ready_;  // a slot was filled (workers -> consumer)
    std::condition_variable room_;   // a slot was emptied, or stop (consumer -> workers)
    size_t started_ = 0;             // paths handed to workers
    size_t consumed_ = 0;            // paths handed out by next()
    bool failed_ = false;
    bool stop_ = false;
    std::vector<std::thread> workers_;
};

}  // namespace taco::raster
