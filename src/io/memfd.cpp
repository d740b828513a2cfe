#include "io/memfd.hpp"

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "taco/errors.hpp"

namespace taco::io {

MemFd::MemFd(const char* name) {
    fd_ = ::memfd_create(name, MFD_CLOEXEC);
    if (fd_ < 0) throw IoError(std::string("memfd_create failed: ") + std::strerror(errno));
}

MemFd::~MemFd() {
    if (fd_ >= 0) ::close(fd_);
}

uint64_t MemFd::size() const {
    struct stat st;
    if (::fstat(fd_, &st) != 0)
        throw IoError(std::string("fstat on memfd failed: ") + std::strerror(errno));
    return static_cast<uint64_t>(st.st_size);
}

}  // namespace taco::io
