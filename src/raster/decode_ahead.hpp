// Decoding many rasters on a few threads, a bounded distance ahead of one consumer that takes
// them in order: what a Python loop over `iter_arrays()` needs. Before, a Python thread pool did
// this: a future, a queue and two GIL hand-offs per sample cost 40-80 us of CPU each, enough to
// hold 1 -> 2 threads at 1.7x where the native decode scales 1.9x (issue 15, READER.md §10.1).
// Here the workers never touch Python; the consumer waits without the GIL.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "process/fork_generation.hpp"
#include "raster/decode.hpp"

namespace taco::raster {

class DecodeAhead {
  public:
    /// Starts decoding `paths` on `threads` threads (0 = all cores, never more than paths),
    /// at most `window` (>= 1) rasters ahead of what next() has handed out.
    DecodeAhead(std::vector<std::string> paths, unsigned threads, size_t window);
    /// Stops the workers (a decode already running finishes first) and joins them. In a fork()
    /// child of the process that made it, leaves them and their state alone instead: the workers
    /// stayed in the parent, and joining them (or destroying a condition variable they waited
    /// on) would abort or hang the child (READER.md §11).
    ~DecodeAhead();
    DecodeAhead(const DecodeAhead&) = delete;
    DecodeAhead& operator=(const DecodeAhead&) = delete;

    /// The next raster in path order, waiting at most `wait` for it: nullopt when it is not
    /// decoded yet (call again; a caller polls for signals in between). `done()` tells the end.
    /// Rethrows the decode error of that path; the iteration ends there. IoError in a fork()
    /// child of the process that made it (its workers stayed in the parent).
    std::optional<Raster> next(std::chrono::milliseconds wait);
    /// True when every raster has been handed out (or an error was).
    bool done() const;
    size_t size() const;

  private:
    struct State;  // on the heap: a forked child leaks it instead of destroying it (see .cpp)
    static void work(State& s);

    std::unique_ptr<State> state_;
    process::ForkOwner owner_;
};

}  // namespace taco::raster
