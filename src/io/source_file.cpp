#include "io/source_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "io/file.hpp"
#include "taco/errors.hpp"

namespace taco::io {
namespace {

std::exception_ptr io_error(const char* what, const std::string& path, int err) {
    return std::make_exception_ptr(
        IoError(std::string(what) + " '" + path + "': " + std::strerror(err)));
}

}  // namespace

SourceFile open_source(const std::string& path) {
    return stat_source(::open(path.c_str(), kOpenReadFlags), path);
}

SourceFile stat_source(int fd, const std::string& path) {
    SourceFile f;
    if (fd < 0) {
        f.error = io_error("cannot open", path, errno);
        return f;
    }
    if (::fstat(fd, &f.st) != 0) {
        f.error = io_error("cannot stat", path, errno);
        ::close(fd);
        return f;
    }
    f.fd = fd;
    return f;
}

}  // namespace taco::io
