// Source files opened, stat'ed and (when small) read ahead of the thread that copies them, by a
// second thread. With many small files the system calls per file (open, fstat, read, close) cost
// more than copying the bytes; this runs them beside the copying instead of before it.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "io/source_file.hpp"

namespace taco::io {

/// Reads `paths` in order, each once, a bounded window ahead of take(). Regular files of at most
/// kMaxLoaded bytes are read whole (and their CRC computed); others are only opened, for the caller
/// to stream. At most kWindow files are held at a time.
class ReadAhead {
  public:
    static constexpr size_t kWindow = 64;
    static constexpr uint64_t kMaxLoaded = uint64_t{256} << 10;

    /// The paths must outlive this object. Starts the second thread.
    explicit ReadAhead(std::vector<const std::filesystem::path*> paths);
    /// Stops the thread and closes every descriptor not yet taken.
    ~ReadAhead();
    ReadAhead(const ReadAhead&) = delete;
    ReadAhead& operator=(const ReadAhead&) = delete;

    size_t size() const { return paths_.size(); }
    const std::filesystem::path& path(size_t i) const { return *paths_[i]; }

    /// File `i`; files are taken in order 0, 1, 2, ... The result (and its descriptor) stays valid
    /// until the next take(). While file `i` is not ready, the calling thread reads the next
    /// unclaimed files itself instead of waiting.
    const SourceFile& take(size_t i);

  private:
    // Per-thread cache of the directory being read, so that files are opened with openat() by
    // name instead of walking their whole path again.
    class DirCache {
      public:
        DirCache() = default;
        ~DirCache();
        DirCache(const DirCache&) = delete;
        DirCache& operator=(const DirCache&) = delete;
        // open(path, O_RDONLY), through the cached directory when possible.
        int open(const std::string& path);

      private:
        std::string dir_;
        int dir_fd_ = -1;
    };

    struct Slot {
        size_t ready = SIZE_MAX;  // index of the file loaded into this slot
        SourceFile file;
        std::unique_ptr<uint8_t[]> buffer;
        size_t capacity = 0;
    };

    void run();
    // Claims file next_ and loads it; `lock` is released while reading.
    void load_next(std::unique_lock<std::mutex>& lock, DirCache& dirs);
    // Opens, stats and, when small, reads `path` into `slot`; errors go into slot.file.error.
    static void fill(Slot& slot, const std::string& path, DirCache& dirs) noexcept;
    bool can_claim() const { return next_ < paths_.size() && next_ < taken_ + kWindow; }
    // The second thread, once the window was full, resumes only when half of it is free again:
    // waking it for every freed slot would cost two context switches per file.
    bool producer_may_resume() const {
        return stop_ || next_ >= paths_.size() || next_ <= taken_ + kWindow / 2;
    }

    std::vector<const std::filesystem::path*> paths_;
    std::vector<Slot> slots_;
    DirCache own_dirs_;  // used by take() when it reads
    std::mutex mutex_;
    std::condition_variable loaded_;  // a slot was filled
    std::condition_variable freed_;   // a slot was freed, or stop_
    size_t next_ = 0;                 // next file to claim
    size_t taken_ = 0;                // files before this one are done with
    bool holding_ = false;            // take(taken_) has returned
    bool producer_waiting_ = false;
    bool stop_ = false;
    std::thread thread_;
};

}  // namespace taco::io
