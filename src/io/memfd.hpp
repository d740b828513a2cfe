// An anonymous in-memory file (memfd) that DuckDB can write Parquet into through
// /proc/self/fd/N, so metadata tables never touch the disk before entering a ZIP.
#pragma once

#include <cstdint>
#include <string>

namespace taco::io {

class MemFd {
  public:
    explicit MemFd(const char* name);
    ~MemFd();
    MemFd(const MemFd&) = delete;
    MemFd& operator=(const MemFd&) = delete;

    int fd() const { return fd_; }
    std::string proc_path() const { return "/proc/self/fd/" + std::to_string(fd_); }
    uint64_t size() const;
    /// The whole content (read with pread: fd()'s position does not move).
    std::string read_all() const;
    /// Empties the file, for the next content written through proc_path().
    void clear();

  private:
    int fd_ = -1;
};

}  // namespace taco::io
