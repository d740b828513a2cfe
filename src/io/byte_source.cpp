#include "io/byte_source.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "io/file.hpp"
#include "taco/errors.hpp"

namespace taco::io {

std::string ByteSource::read_string(uint64_t offset, size_t n, const std::string& what) const {
    std::string out(n, '\0');
    if (n > 0) read_at(offset, out.data(), n, what);
    return out;
}

void ByteSource::copy_to_fd(uint64_t offset, uint64_t n, int out, const std::string& what) const {
    check_range(offset, n, what);
    std::vector<char> buf(static_cast<size_t>(std::min<uint64_t>(n, uint64_t{1} << 20)));
    uint64_t position = 0;
    while (position < n) {
        const size_t piece = static_cast<size_t>(std::min<uint64_t>(buf.size(), n - position));
        read_at(offset + position, buf.data(), piece, what);
        const char* p = buf.data();
        size_t left = piece;
        while (left > 0) {
            ssize_t w = ::write(out, p, left);
            if (w < 0) {
                if (errno == EINTR) continue;
                throw IoError("cannot copy " + what + " of " + name() +
                              " into memory: " + std::strerror(errno));
            }
            p += w;
            left -= static_cast<size_t>(w);
        }
        position += piece;
    }
}

std::string byte_range_text(uint64_t offset, uint64_t size) {
    const std::string start = "bytes [" + std::to_string(offset) + ", ";
    if (size > UINT64_MAX - offset) {
        return start + std::to_string(offset) + " + " + std::to_string(size) + ")";
    }
    return start + std::to_string(offset + size) + ")";
}

void ByteSource::check_range(uint64_t offset, uint64_t n, const std::string& what) const {
    const uint64_t total = size();
    if (offset > total || total - offset < n) {
        throw FormatError(name() + ": " + what + " at " + byte_range_text(offset, n) +
                          " lies outside the file (" + std::to_string(total) +
                          " bytes); the file is truncated or the offset " + "is wrong");
    }
}

namespace {

class LocalFileSource final : public ByteSource {
  public:
    explicit LocalFileSource(const std::filesystem::path& path)
        : file_(File::open_read(path)), name_(path.string()), size_(file_.size()) {}

    const std::string& name() const override { return name_; }
    uint64_t size() const override { return size_; }
    void read_at(uint64_t offset, void* buf, size_t n, const std::string& what) const override {
        check_range(offset, n, what);
        file_.read_at(offset, buf, n);
    }
    int local_fd() const override { return file_.fd(); }

  private:
    File file_;
    std::string name_;
    uint64_t size_;
};

}  // namespace

std::shared_ptr<ByteSource> open_local_source(const std::filesystem::path& path) {
    return std::make_shared<LocalFileSource>(path);
}

}  // namespace taco::io
