#include "io/crc_behind.hpp"

#include <algorithm>
#include <memory>

#include "io/crc32.hpp"
#include "io/file.hpp"

namespace taco::io {
namespace {

// Small enough to stay in the CPU cache between the read and the sum.
constexpr size_t kChunk = size_t{256} << 10;

uint32_t sum_range(int fd, uint64_t offset, uint64_t size, const std::string& name, uint8_t* buf) {
    uint32_t crc = 0;
    for (uint64_t at = 0; at < size;) {
        const size_t n = static_cast<size_t>(std::min<uint64_t>(kChunk, size - at));
        pread_exact(fd, offset + at, buf, n, name);
        crc = crc32(crc, buf, n);
        at += n;
    }
    return crc;
}

}  // namespace

uint32_t crc_of_range(int fd, uint64_t offset, uint64_t size, const std::string& name) {
    auto buf = std::make_unique_for_overwrite<uint8_t[]>(kChunk);
    return sum_range(fd, offset, size, name, buf.get());
}

CrcBehind::CrcBehind(int fd, std::string name) : fd_(fd), name_(std::move(name)) {
    thread_ = std::thread([this] { run(); });
}

CrcBehind::~CrcBehind() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    work_.notify_all();
    thread_.join();
}

void CrcBehind::push(size_t key, uint64_t offset, uint64_t size) {
    std::unique_lock lock(mutex_);
    done_.wait(lock,
               [&] { return error_ || (unsummed_ < kMaxRanges && unsummed_bytes_ < kMaxBytes); });
    if (error_) return;  // collect() reports it
    queued_.push_back({key, offset, size});
    ++unsummed_;
    unsummed_bytes_ += size;
    uncollected_.push_back(key);
    lock.unlock();
    work_.notify_one();
}

std::vector<std::pair<size_t, uint32_t>> CrcBehind::collect(bool all) {
    std::unique_lock lock(mutex_);
    if (all) done_.wait(lock, [&] { return error_ || unsummed_ == 0; });
    if (error_) std::rethrow_exception(error_);
    std::vector<std::pair<size_t, uint32_t>> out;
    out.swap(summed_);
    uncollected_.erase(uncollected_.begin(),
                       uncollected_.begin() + static_cast<std::ptrdiff_t>(out.size()));
    return out;
}

bool CrcBehind::pending() const {
    std::lock_guard lock(mutex_);
    return !uncollected_.empty();
}

bool CrcBehind::pending(size_t key) const {
    std::lock_guard lock(mutex_);
    return std::find(uncollected_.begin(), uncollected_.end(), key) != uncollected_.end();
}

void CrcBehind::run() {
    auto buf = std::make_unique_for_overwrite<uint8_t[]>(kChunk);
    for (;;) {
        Range r;
        {
            std::unique_lock lock(mutex_);
            work_.wait(lock, [&] { return stop_ || !queued_.empty(); });
            if (stop_) return;
            r = queued_.front();
            queued_.pop_front();
        }
        uint32_t crc = 0;
        try {
            crc = sum_range(fd_, r.offset, r.size, name_, buf.get());
        } catch (...) {
            std::lock_guard lock(mutex_);
            error_ = std::current_exception();
            done_.notify_all();
            return;
        }
        {
            std::lock_guard lock(mutex_);
            summed_.emplace_back(r.key, crc);
            --unsummed_;
            unsummed_bytes_ -= r.size;
        }
        done_.notify_all();
    }
}

}  // namespace taco::io
