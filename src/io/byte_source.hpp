// Random access to the bytes of one container file. Readers only talk to this interface, so a
// remote implementation (GDAL VSI range reads) can replace the local one without touching them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

namespace taco::io {

class ByteSource {
  public:
    virtual ~ByteSource() = default;

    /// What error messages call the source (the path as the user gave it).
    virtual const std::string& name() const = 0;
    /// Total size in bytes, fixed when the source was opened.
    virtual uint64_t size() const = 0;
    /// Reads exactly `n` bytes at `offset`. Safe to call from several threads at once. A range
    /// outside the source is a FormatError naming `what` (e.g. "METADATA/level1.parquet") and
    /// the range; failing reads are IoError.
    virtual void read_at(uint64_t offset, void* buf, size_t n, const std::string& what) const = 0;

    /// `read_at` into a new string.
    std::string read_string(uint64_t offset, size_t n, const std::string& what) const;
    /// Copies `n` bytes at `offset` to the descriptor `out` at its current position, in pieces,
    /// so large ranges need no buffer of their own size.
    virtual void copy_to_fd(uint64_t offset, uint64_t n, int out, const std::string& what) const;
    /// Announces that [offset, offset + n) will be read soon. Remote sources fetch it in one
    /// request and serve the reads from memory; local ones do nothing.
    virtual void prefetch(uint64_t /*offset*/, uint64_t /*n*/, const std::string& /*what*/) const {}
    /// Frees what `prefetch` kept (once the level tables are copied out): later reads of those
    /// bytes fetch them again.
    virtual void drop_prefetched() const {}
    /// The descriptor of a local file, for copies the kernel can do (copy_file_range); -1 for a
    /// remote source. Owned by the source and valid while it lives.
    virtual int local_fd() const { return -1; }

  protected:
    /// Throws the FormatError described above when [offset, offset + n) is not inside the source.
    void check_range(uint64_t offset, uint64_t n, const std::string& what) const;
};

/// "bytes [offset, offset + size)" for messages. A range whose end does not fit in 64 bits (a
/// damaged offset such as 2^64 - 100) is written as "bytes [offset, offset + size)" literally
/// rather than with an end that wrapped around below its start.
std::string byte_range_text(uint64_t offset, uint64_t size);

/// A local file read with pread through one descriptor kept open for the source's lifetime.
std::shared_ptr<ByteSource> open_local_source(const std::filesystem::path& path);

}  // namespace taco::io
