#include "io/crc_ahead.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <memory>

#include "io/crc32.hpp"

namespace taco::io {
namespace {

// Small enough to stay in the CPU cache between the read and the sum.
constexpr size_t kChunk = size_t{256} << 10;

int64_t mtime_ns(const struct stat& st) {
    return static_cast<int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
}

// The CRC of the whole regular file at `path`, or nullopt on any trouble (the copier then reads
// the file itself and names the error properly).
std::optional<AheadCrc> sum_file(const std::string& path, uint64_t min_size, uint8_t* buf,
                                 const std::atomic<bool>& stop) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return std::nullopt;
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{fd};
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
    const auto size = static_cast<uint64_t>(st.st_size);
    if (size < min_size) return std::nullopt;
    uint32_t crc = 0;
    for (uint64_t at = 0; at < size;) {
        if (stop) return std::nullopt;
        const size_t want = static_cast<size_t>(std::min<uint64_t>(kChunk, size - at));
        const ssize_t got = ::pread(fd, buf, want, static_cast<off_t>(at));
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return std::nullopt;  // error or shrunk: let the copier find out
        crc = io::crc32(crc, buf, static_cast<size_t>(got));
        at += static_cast<uint64_t>(got);
    }
    struct stat after {};
    // Changed while being read: nothing to vouch for.
    if (::fstat(fd, &after) != 0 || after.st_size != st.st_size || mtime_ns(after) != mtime_ns(st))
        return std::nullopt;
    return AheadCrc{crc, size, static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino),
                    mtime_ns(st)};
}

}  // namespace

bool same_as_summed(int fd, const AheadCrc& summed) {
    struct stat st {};
    if (::fstat(fd, &st) != 0) return false;
    return static_cast<uint64_t>(st.st_dev) == summed.device &&
           static_cast<uint64_t>(st.st_ino) == summed.inode &&
           static_cast<uint64_t>(st.st_size) == summed.size && mtime_ns(st) == summed.mtime_ns;
}

CrcAhead::CrcAhead(std::vector<std::string> paths, uint64_t min_size)
    : paths_(std::move(paths)),
      min_size_(min_size),
      results_(paths_.size()),
      sizes_(paths_.size(), 0) {
    thread_ = std::thread([this] { run(); });
}

CrcAhead::~CrcAhead() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    room_.notify_all();
    thread_.join();
}

void CrcAhead::run() {
    auto buf = std::make_unique_for_overwrite<uint8_t[]>(kChunk);
    for (size_t i = 0; i < paths_.size(); ++i) {
        bool wanted;
        {
            std::unique_lock lock(mutex_);
            room_.wait(lock, [&] {
                return stop_ || i < taken_ ||
                       (i - taken_ < kMaxFilesAhead && bytes_ahead_ < kMaxBytesAhead);
            });
            if (stop_) return;
            wanted = i >= taken_;  // the copier has not passed it
        }
        std::optional<AheadCrc> r;
        if (wanted && !paths_[i].empty()) r = sum_file(paths_[i], min_size_, buf.get(), stop_);
        {
            std::lock_guard lock(mutex_);
            if (i >= taken_) {
                results_[i] = r;
                sizes_[i] = r ? r->size : 0;
                bytes_ahead_ += sizes_[i];
            }
            done_ = i + 1;
        }
        ready_.notify_one();
    }
}

std::optional<AheadCrc> CrcAhead::take(size_t i) {
    if (i >= paths_.size()) return std::nullopt;
    std::unique_lock lock(mutex_);
    release_below(i);  // passed over: the helper may skip them and run on
    room_.notify_one();
    ready_.wait(lock, [&] { return done_ > i; });
    std::optional<AheadCrc> r = std::move(results_[i]);
    release_below(i + 1);
    lock.unlock();
    room_.notify_one();
    return r;
}

void CrcAhead::release_below(size_t end) {
    for (; taken_ < end; ++taken_) {
        results_[taken_].reset();
        bytes_ahead_ -= sizes_[taken_];
        sizes_[taken_] = 0;
    }
}

}  // namespace taco::io
