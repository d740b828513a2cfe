// A small work-sharing loop: the calling thread and a few helpers take indices (or blocks of
// them) from one counter until none are left. Used where the pieces are independent and uneven
// in cost: decoding rasters, stat-ing input files, building result chunks.
#pragma once

#include <cstddef>
#include <functional>

namespace taco::io {

/// Calls fn(i) for every i in [0, n) on `threads` threads, this one included (0 = one per core;
/// never more than there are blocks). Indices are handed out `grain` at a time, in increasing
/// order. The first exception stops the handing out; calls already running finish, and once all
/// threads are done the exception of the lowest failing index is rethrown here (the same one
/// whatever the threads' timing).
void parallel_for(size_t n, unsigned threads, const std::function<void(size_t)>& fn,
                  size_t grain = 1);

}  // namespace taco::io
