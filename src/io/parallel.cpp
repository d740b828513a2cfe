#include "io/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace taco::io {

void parallel_for(size_t n, unsigned threads, const std::function<void(size_t)>& fn, size_t grain) {
    grain = std::max<size_t>(grain, 1);
    const size_t blocks = (n + grain - 1) / grain;
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    threads = static_cast<unsigned>(std::min<size_t>(threads, std::max<size_t>(blocks, 1)));
    std::atomic<size_t> next{0};
    std::exception_ptr error;
    size_t error_index = n;
    std::mutex error_mutex;
    auto worker = [&] {
        for (size_t begin; (begin = next.fetch_add(grain)) < n;) {
            const size_t end = std::min(begin + grain, n);
            size_t i = begin;
            try {
                for (; i < end; ++i) fn(i);
            } catch (...) {
                std::lock_guard lock(error_mutex);
                // Indices are handed out in increasing order, so every index below a failing one
                // was handed out before it: keeping the lowest failure reports the first in index
                // order, whichever thread met its failure first.
                if (i < error_index) {
                    error = std::current_exception();
                    error_index = i;
                }
                next = n;  // stop handing out work
            }
        }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker);
    worker();
    for (auto& t : pool) t.join();
    if (error) std::rethrow_exception(error);
}

}  // namespace taco::io
