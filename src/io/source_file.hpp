// A source file opened for copying into a dataset: what open + fstat (+ read) gave, or why they
// failed. Failures are kept rather than thrown, so that whoever copies the file reports them at
// the point where opening it in place would have.
#pragma once

#include <sys/stat.h>

#include <cstdint>
#include <exception>
#include <string>

namespace taco::io {

struct SourceFile {
    int fd = -1;  // open unless `loaded` or `error`; closed by whoever opened it
    struct stat st {};
    bool loaded = false;                // all st.st_size bytes are in `contents`
    const uint8_t* contents = nullptr;  // when loaded (may be null for an empty file)
    uint32_t crc = 0;                   // CRC-32 of `contents`, when loaded
    std::exception_ptr error;           // IoError naming the path, as io::File words it
};

/// Opens `path` read-only and fstats it, without reading.
SourceFile open_source(const std::string& path);
/// The same for a descriptor the caller just opened (-1: that open failed, errno says why).
SourceFile stat_source(int fd, const std::string& path);

}  // namespace taco::io
