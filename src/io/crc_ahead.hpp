// CRC-32s of local files computed on a helper thread, a few files ahead of the copy.
//
// A ZIP entry's CRC goes into its local header, before the data. folder2zip and `create` copy
// each big sample with copy_file_range (the bytes never enter user space), so its CRC has to come
// from a second read of the same bytes. Done after each copy, that read sat on the critical path
// (about a third of folder2zip's CPU); done here, on the other core and ahead of the copy, it
// overlaps the kernel's copying, and the header is written with its final CRC at once.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace taco::io {

/// What the helper saw of one file: its CRC and the identity it had while being read, so the
/// copier can tell that the bytes it copied are the bytes that were summed.
struct AheadCrc {
    uint32_t crc = 0;
    uint64_t size = 0;
    uint64_t device = 0, inode = 0;
    int64_t mtime_ns = 0;
};

/// Whether the file behind `fd` is the one `summed` describes, unchanged since (same device,
/// inode, size and modification time): only then does its CRC vouch for what is copied.
bool same_as_summed(int fd, const AheadCrc& summed);

class CrcAhead {
  public:
    /// Starts summing `paths` in order (an empty path is skipped). Files below `min_size` bytes
    /// are skipped too: the writer sums those while buffering them anyway.
    CrcAhead(std::vector<std::string> paths, uint64_t min_size);
    ~CrcAhead();
    CrcAhead(const CrcAhead&) = delete;
    CrcAhead& operator=(const CrcAhead&) = delete;

    /// The CRC of paths[i], waiting for the helper if it is not there yet; nullopt when the
    /// file was skipped or could not be read (the caller then reads it itself and reports any
    /// error with its own context). Call with increasing i; indices passed over are released.
    std::optional<AheadCrc> take(size_t i);

  private:
    void run();
    // Frees results [taken_, end) and advances taken_; call with mutex_ held.
    void release_below(size_t end);

    // The helper stays at most this many samples, or bytes, ahead of the copy: far enough to
    // hide its latency, near enough that what it read is still in the page cache for the copy.
    static constexpr size_t kMaxFilesAhead = 32;
    static constexpr uint64_t kMaxBytesAhead = uint64_t{256} << 20;

    std::vector<std::string> paths_;
    uint64_t min_size_;
    std::vector<std::optional<AheadCrc>> results_;
    std::vector<uint64_t> sizes_;  // bytes summed per file, for the bytes-ahead bound
    std::mutex mutex_;
    std::condition_variable ready_;  // a result is in (helper -> copier)
    std::condition_variable room_;   // the copier took one (copier -> helper)
    size_t done_ = 0;                // results_[0, done_) are final
    size_t taken_ = 0;               // the copier is done with [0, taken_)
    uint64_t bytes_ahead_ = 0;       // bytes summed but not yet taken
    std::atomic<bool> stop_{false};  // read by the helper between chunks
    std::thread thread_;
};

}  // namespace taco::io
