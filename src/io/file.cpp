#include "io/file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include "taco/errors.hpp"

namespace taco::io {

namespace {

[[noreturn]] void throw_errno(const std::string& what, const std::string& name, int err) {
    throw IoError(what + " '" + name + "': " + std::strerror(err));
}

}  // namespace

File::~File() {
    if (fd_ >= 0) ::close(fd_);
}

File::File(File&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), path_(std::move(other.path_)) {}

File& File::operator=(File&& other) noexcept {
    if (this != &other) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = std::exchange(other.fd_, -1);
        path_ = std::move(other.path_);
    }
    return *this;
}

namespace {
// Opens `path` with `flags`. O_NONBLOCK: opening a FIFO must not wait for a writer; the caller's
// check_regular() refuses it next.
int open_regular(const std::filesystem::path& path, int flags) {
    int fd = ::open(path.c_str(), flags | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) throw_errno("cannot open", path.string(), errno);
    return fd;
}
}  // namespace

File File::open_read(const std::filesystem::path& path) {
    File f(open_regular(path, O_RDONLY), path.string());
    f.check_regular();
    return f;
}

File File::open_read_write(const std::filesystem::path& path) {
    File f(open_regular(path, O_RDWR), path.string());
    f.check_regular();
    return f;
}

void File::check_regular() const {
    struct stat st {};
    if (::fstat(fd_, &st) != 0) throw_errno("cannot stat", path_, errno);
    if (!S_ISREG(st.st_mode)) throw IoError(not_regular_message(path_, st.st_mode));
}

std::string not_regular_message(const std::string& path, unsigned mode) {
    const char* what = S_ISDIR(mode)    ? "a directory"
                       : S_ISFIFO(mode) ? "a FIFO"
                       : S_ISCHR(mode)  ? "a character device"
                       : S_ISBLK(mode)  ? "a block device"
                       : S_ISSOCK(mode) ? "a socket"
                                        : "not a regular file";
    return "cannot read '" + path + "': it is " + what + ", expected a regular file";
}

File File::create_exclusive(const std::filesystem::path& path, mode_t mode) {
    int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fd < 0) throw_errno("cannot create", path.string(), errno);
    return File(fd, path.string());
}

void File::create_with(const std::filesystem::path& path, std::string_view data, mode_t mode) {
    File f = create_exclusive(path, mode);
    if (!data.empty()) f.write_all(data.data(), data.size());
    f.close();
}

uint64_t File::size() const {
    struct stat st {};
    if (::fstat(fd_, &st) != 0) throw_errno("cannot stat", path_, errno);
    return static_cast<uint64_t>(st.st_size);
}

void File::read_at(uint64_t offset, void* buf, size_t n) const {
    pread_exact(fd_, offset, buf, n, path_);
}

void File::write_all(const void* data, size_t n) {
    const auto* p = static_cast<const char*>(data);
    while (n > 0) {
        ssize_t w = ::write(fd_, p, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            throw_errno("cannot write to", path_, errno);
        }
        p += w;
        n -= static_cast<size_t>(w);
    }
}

void File::pwrite_all(uint64_t offset, const void* data, size_t n) {
    io::pwrite_all(fd_, offset, data, n, path_);
}

void File::close() {
    if (fd_ < 0) return;
    // Linux releases the descriptor even when close() fails, so it must not be retried.
    int rc = ::close(std::exchange(fd_, -1));
    if (rc != 0 && errno != EINTR) throw_errno("cannot close", path_, errno);
}

void pread_exact(int fd, uint64_t offset, void* buf, size_t n, const std::string& name) {
    auto* p = static_cast<char*>(buf);
    const size_t wanted = n;
    while (n > 0) {
        ssize_t r = ::pread(fd, p, n, static_cast<off_t>(offset));
        if (r < 0) {
            if (errno == EINTR) continue;
            throw_errno("cannot read", name, errno);
        }
        if (r == 0) {
            throw IoError("cannot read '" + name + "': unexpected end of file at offset " +
                          std::to_string(offset) + " (" + std::to_string(wanted - n) + " of " +
                          std::to_string(wanted) + " bytes read)");
        }
        p += r;
        n -= static_cast<size_t>(r);
        offset += static_cast<uint64_t>(r);
    }
}

uint64_t copy_fd(int in, int out, uint64_t n, const std::string& in_name,
                 const std::string& out_name) {
    uint64_t done = 0;
    bool kernel = true;
    while (done < n) {
        const size_t piece = static_cast<size_t>(std::min<uint64_t>(n - done, uint64_t{1} << 30));
        if (kernel) {
            const ssize_t c = ::copy_file_range(in, nullptr, out, nullptr, piece, 0);
            if (c > 0) {
                done += static_cast<uint64_t>(c);
                continue;
            }
            if (c == 0) break;  // the input ended
            if (errno == EINTR) continue;
            if (errno != EXDEV && errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP)
                throw_errno("cannot write to", out_name, errno);
            kernel = false;  // not offered between these two files: copy through a buffer
        }
        char buf[1 << 16];
        const ssize_t r = ::read(in, buf, std::min(sizeof buf, piece));
        if (r < 0) {
            if (errno == EINTR) continue;
            throw_errno("cannot read", in_name, errno);
        }
        if (r == 0) break;
        size_t left = static_cast<size_t>(r);
        const char* p = buf;
        while (left > 0) {
            const ssize_t w = ::write(out, p, left);
            if (w < 0) {
                if (errno == EINTR) continue;
                throw_errno("cannot write to", out_name, errno);
            }
            p += w;
            left -= static_cast<size_t>(w);
        }
        done += static_cast<uint64_t>(r);
    }
    return done;
}

void pwrite_all(int fd, uint64_t offset, const void* data, size_t n, const std::string& name) {
    const auto* p = static_cast<const char*>(data);
    while (n > 0) {
        ssize_t w = ::pwrite(fd, p, n, static_cast<off_t>(offset));
        if (w < 0) {
            if (errno == EINTR) continue;
            throw_errno("cannot write to", name, errno);
        }
        p += w;
        n -= static_cast<size_t>(w);
        offset += static_cast<uint64_t>(w);
    }
}

}  // namespace taco::io
