// CRC-32s of ranges already written to a file, summed on a helper thread a few ranges behind the
// writer.
//
// A ZIP entry's CRC goes into its local header, before the data. When the kernel copies a big
// sample into the archive (copy_file_range: the bytes never enter user space), the CRC has to
// come from a second read. It is read from the archive, not from the source: the bytes summed are
// then the bytes stored, whatever another process does to the source meanwhile (a write through a
// shared mapping changes a file's bytes without changing its size or mtime, so no check of the
// source can vouch for a sum taken at another moment). On the other core the read overlaps the
// next copies; the writer patches each CRC into its header when it collects it.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace taco::io {

/// The CRC-32 of [offset, offset + size) of `fd`, read through a small buffer (what the helper
/// below does for each range; for callers without a second core). IoError naming `name`.
uint32_t crc_of_range(int fd, uint64_t offset, uint64_t size, const std::string& name);

class CrcBehind {
  public:
    /// Sums ranges of `fd` (not owned; it must stay open while this object lives). `name`
    /// names the file in errors.
    CrcBehind(int fd, std::string name);
    /// Stops the helper (ranges not yet summed are dropped) and joins it.
    ~CrcBehind();
    CrcBehind(const CrcBehind&) = delete;
    CrcBehind& operator=(const CrcBehind&) = delete;

    /// Queues [offset, offset + size) under `key`. Waits while the ranges not yet summed exceed
    /// kMaxRanges or kMaxBytes, so what the helper reads is still in the page cache and the
    /// writer never runs far ahead of it.
    void push(size_t key, uint64_t offset, uint64_t size);

    /// (key, CRC) of every range summed since the last call, in push order; waits for all the
    /// ranges pushed when `all`. Rethrows the helper's read error (an IoError naming the file).
    std::vector<std::pair<size_t, uint32_t>> collect(bool all);

    /// Whether ranges were pushed and not yet collected.
    bool pending() const;
    /// Whether range `key` was pushed and not yet collected.
    bool pending(size_t key) const;

    static constexpr size_t kMaxRanges = 64;
    static constexpr uint64_t kMaxBytes = uint64_t{256} << 20;

  private:
    struct Range {
        size_t key;
        uint64_t offset, size;
    };
    void run();

    int fd_;
    std::string name_;
    mutable std::mutex mutex_;
    std::condition_variable work_;  // a range was pushed, or stop_ (writer -> helper)
    std::condition_variable done_;  // a range was summed, or the helper failed (helper -> writer)
    std::deque<Range> queued_;      // pushed, not yet taken by the helper
    std::vector<std::pair<size_t, uint32_t>> summed_;  // summed, not yet collected
    size_t unsummed_ = 0;  // pushed and not yet summed (queued or being read)
    uint64_t unsummed_bytes_ = 0;
    std::vector<size_t> uncollected_;  // keys pushed and not yet collected, in push order
    std::exception_ptr error_;
    bool stop_ = false;
    std::thread thread_;
};

}  // namespace taco::io
