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

std::string MemFd::read_all() const {
    std::string out(size(), '\0');
    size_t done = 0;
    while (done < out.size()) {
        const ssize_t r =
            ::pread(fd_, out.data() + done, out.size() - done, static_cast<off_t>(done));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0)
            throw IoError(std::string("cannot read a memfd: ") +
                          (r < 0 ? std::strerror(errno) : "it ended early"));
        done += static_cast<size_t>(r);
    }
    return out;
}

void MemFd::clear() {
    if (::ftruncate(fd_, 0) != 0)
        throw IoError(std::string("cannot empty a memfd: ") + std::strerror(errno));
}

}  // namespace taco::io
