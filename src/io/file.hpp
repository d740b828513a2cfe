// A local file descriptor with positional, retry-until-done reads and writes. Every failure is a
// taco::IoError that names the file and the system's reason.
#pragma once

#include <fcntl.h>
#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace taco::io {

/// Flags of every read-only open of a file named by a user or a dataset: O_NONBLOCK so that a FIFO
/// is refused (after fstat) instead of blocking the open until some writer appears. Reads from a
/// regular file ignore O_NONBLOCK.
inline constexpr int kOpenReadFlags = O_RDONLY | O_NONBLOCK | O_CLOEXEC;

/// "cannot read 'p': it is a FIFO, expected a regular file" for an fstat st_mode.
std::string not_regular_message(const std::string& path, unsigned mode);

/// Owns one open descriptor; closing happens in the destructor (errors there are ignored) or in
/// close() (errors thrown). Move-only.
class File {
  public:
    File() = default;
    ~File();
    File(File&& other) noexcept;
    File& operator=(File&& other) noexcept;
    File(const File&) = delete;
    File& operator=(const File&) = delete;

    /// Opens an existing regular file read-only; IoError for a FIFO, device, socket or directory
    /// (without blocking on a FIFO).
    static File open_read(const std::filesystem::path& path);
    /// Opens an existing regular file for reading and writing in place (a header patched without
    /// rewriting the file); the same refusals as open_read.
    static File open_read_write(const std::filesystem::path& path);
    /// Creates a new file for reading and writing; fails if `path` already exists, so a writer can
    /// never clobber a dataset by accident. `mode` is filtered by the umask.
    static File create_exclusive(const std::filesystem::path& path, mode_t mode = 0666);
    /// create_exclusive, `data` written and the file closed (a failing close reported).
    static void create_with(const std::filesystem::path& path, std::string_view data,
                            mode_t mode = 0666);

    bool is_open() const { return fd_ >= 0; }
    int fd() const { return fd_; }
    const std::string& path() const { return path_; }

    /// Current size from fstat.
    uint64_t size() const;
    /// Reads exactly `n` bytes at `offset`; reaching the end of the file first is an error.
    void read_at(uint64_t offset, void* buf, size_t n) const;
    /// Writes all bytes at the descriptor's current position.
    void write_all(const void* data, size_t n);
    /// Writes all bytes at `offset` without moving the descriptor's position.
    void pwrite_all(uint64_t offset, const void* data, size_t n);
    /// Closes now and reports a failing close (which can carry a delayed write error).
    void close();

  private:
    File(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
    // IoError unless the descriptor is a regular file (a FIFO, device or directory is refused).
    void check_regular() const;

    int fd_ = -1;
    std::string path_;
};

// Descriptor-level forms of the same loops, for code that writes to a descriptor it does not own
// (a ZIP being written, a memfd). `name` is what error messages call the descriptor.

/// Reads exactly `n` bytes at `offset`, retrying short reads and EINTR.
void pread_exact(int fd, uint64_t offset, void* buf, size_t n, const std::string& name);
/// Writes all `n` bytes at `offset`, retrying short writes and EINTR.
void pwrite_all(int fd, uint64_t offset, const void* data, size_t n, const std::string& name);
/// Copies up to `n` bytes from the current position of `in` to that of `out` in the kernel
/// (copy_file_range, which may share blocks; plain reads and writes where it is not offered) and
/// returns how many were copied: fewer than `n` only when `in` ended first. A failing write is an
/// IoError naming `out_name` and the system's reason (ENOSPC reads "No space left on device").
uint64_t copy_fd(int in, int out, uint64_t n, const std::string& in_name,
                 const std::string& out_name);

}  // namespace taco::io
