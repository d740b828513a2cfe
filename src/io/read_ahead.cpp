#include "io/read_ahead.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <stdexcept>
#include <utility>

#include "io/crc32.hpp"
#include "io/file.hpp"

namespace taco::io {

ReadAhead::DirCache::~DirCache() {
    if (dir_fd_ >= 0) ::close(dir_fd_);
}

int ReadAhead::DirCache::open(const std::string& path) {
    const size_t slash = path.rfind('/');
    if (slash == std::string::npos || slash + 1 == path.size())
        return ::open(path.c_str(), kOpenReadFlags);
    const size_t dir_length = slash == 0 ? 1 : slash;
    if (dir_fd_ < 0 || path.compare(0, dir_length, dir_) != 0) {
        if (dir_fd_ >= 0) ::close(dir_fd_);
        dir_.assign(path, 0, dir_length);
        dir_fd_ = ::open(dir_.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    }
    // A directory that cannot be opened: the full path gives the error the user should see.
    if (dir_fd_ < 0) return ::open(path.c_str(), kOpenReadFlags);
    return ::openat(dir_fd_, path.c_str() + slash + 1, kOpenReadFlags);
}

ReadAhead::ReadAhead(std::vector<const std::filesystem::path*> paths)
    : paths_(std::move(paths)), slots_(kWindow) {
    // On one CPU the second thread would only take turns with this one.
    if (paths_.size() > 1 && std::thread::hardware_concurrency() > 1)
        thread_ = std::thread([this] { run(); });
}

ReadAhead::~ReadAhead() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    freed_.notify_all();
    if (thread_.joinable()) thread_.join();
    for (Slot& slot : slots_)
        if (slot.file.fd >= 0) ::close(slot.file.fd);
}

const SourceFile& ReadAhead::take(size_t i) {
    if (i != taken_ + (holding_ ? 1 : 0) || i >= paths_.size())
        throw std::logic_error("ReadAhead::take: files must be taken in order, once each");
    if (holding_) {
        SourceFile& done = slots_[taken_ % kWindow].file;
        if (done.fd >= 0) ::close(std::exchange(done.fd, -1));
    }
    std::unique_lock<std::mutex> lock(mutex_);
    taken_ = i;
    holding_ = true;
    if (producer_waiting_ && producer_may_resume()) freed_.notify_one();
    Slot& slot = slots_[i % kWindow];
    while (slot.ready != i) {
        if (can_claim())
            load_next(lock, own_dirs_);
        else
            loaded_.wait(lock);
    }
    return slot.file;
}

void ReadAhead::run() {
    DirCache dirs;
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        if (!stop_ && !can_claim() && next_ < paths_.size()) {
            producer_waiting_ = true;
            freed_.wait(lock, [this] { return producer_may_resume(); });
            producer_waiting_ = false;
        }
        if (stop_ || next_ >= paths_.size()) return;
        load_next(lock, dirs);
    }
}

void ReadAhead::load_next(std::unique_lock<std::mutex>& lock, DirCache& dirs) {
    const size_t i = next_++;
    Slot& slot = slots_[i % kWindow];
    lock.unlock();
    fill(slot, paths_[i]->native(), dirs);
    lock.lock();
    slot.ready = i;
    loaded_.notify_one();
}

void ReadAhead::fill(Slot& slot, const std::string& path, DirCache& dirs) noexcept {
    SourceFile& f = slot.file;
    try {
        f = stat_source(dirs.open(path), path);
        const auto size = static_cast<uint64_t>(f.st.st_size);
        if (f.error || !S_ISREG(f.st.st_mode) || size > kMaxLoaded) return;
        if (size > slot.capacity) {
            slot.buffer = std::make_unique_for_overwrite<uint8_t[]>(size);
            slot.capacity = size;
        }
        pread_exact(f.fd, 0, slot.buffer.get(), size, path);
        f.contents = slot.buffer.get();
        f.crc = crc32(0, f.contents, size);
        f.loaded = true;
    } catch (...) {
        f.error = std::current_exception();
    }
    if (f.fd >= 0 && (f.loaded || f.error)) ::close(std::exchange(f.fd, -1));
}

}  // namespace taco::io
