// Encoders of small files, one per DuckDB connection of one database, run at once on a series of
// files that are handed over in order: the __meta__ tables of a create (ParquetSeries) and of an
// export (ParquetSlices). Each encoder holds a prepared COPY of its connection, so a second
// connection is opened only when a batch has enough files to share.
#pragma once

#include <algorithm>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "io/parallel.hpp"
#include "metadata/duckdb_session.hpp"

namespace taco::metadata {

/// Encoders a series runs at once by default: one per core, at most four (each COPY runs on its
/// caller's thread, ~0.4 ms of CPU per small file).
inline unsigned encoder_threads() {
    return std::clamp(std::thread::hardware_concurrency(), 1u, 4u);
}

template <typename Encoder>
class EncoderPool {
  public:
    using Make = std::function<std::unique_ptr<Encoder>(DuckSession&)>;

    /// The first encoder is made on `db` now, the others (up to `threads`) on connections of
    /// their own to the same database when a batch first needs them.
    EncoderPool(DuckSession& db, unsigned threads, Make make)
        : db_(db), threads_(std::max(1u, threads)), make_(std::move(make)) {
        add(db_);
    }
    EncoderPool(const EncoderPool&) = delete;
    EncoderPool& operator=(const EncoderPool&) = delete;

    /// Runs fn on a free encoder (one call at a time per encoder, from any thread).
    template <typename Fn>
    auto with_encoder(Fn&& fn) {
        Encoder& e = acquire();
        struct Release {
            EncoderPool* pool;
            Encoder* encoder;
            ~Release() { pool->release(*encoder); }
        } release{this, &e};
        return fn(e);
    }

    /// File k = encode(encoder, k) for k in 0 .. n-1, kBatch files at a time on up to `threads`
    /// encoders at once, each handed to take(k, file) on the calling thread in index order. The
    /// first failure in index order is rethrown; the files of the batches before it were taken.
    void encode(size_t n, const std::function<std::string(Encoder&, size_t)>& encode,
                const std::function<void(size_t, std::string&)>& take) {
        std::vector<std::string> files;
        for (size_t begin = 0; begin < n; begin += kBatch) {
            const size_t count = std::min(kBatch, n - begin);
            const unsigned workers =
                static_cast<unsigned>(std::clamp<size_t>(count / kFilesPerThread, 1, threads_));
            while (encoders_.size() < workers) {
                connections_.push_back(db_.another_connection());
                add(*connections_.back());
            }
            files.assign(count, std::string());
            io::parallel_for(count, workers, [&](size_t k) {
                files[k] = with_encoder([&](Encoder& e) { return encode(e, begin + k); });
            });
            for (size_t k = 0; k < count; ++k) take(begin + k, files[k]);
        }
    }

    /// Files encoded before they are handed over: bounds the memory held.
    static constexpr size_t kBatch = 256;
    /// Below this many files per thread, another connection (opening it, registering its
    /// functions, preparing the COPY: ~1 ms) costs more than it saves.
    static constexpr size_t kFilesPerThread = 32;

  private:
    void add(DuckSession& on) {
        encoders_.push_back(make_(on));
        free_.push_back(encoders_.back().get());
    }
    Encoder& acquire() {
        std::lock_guard<std::mutex> lock(mutex_);
        Encoder* e = free_.back();  // never empty: one encoder per thread of a batch
        free_.pop_back();
        return *e;
    }
    void release(Encoder& e) {
        std::lock_guard<std::mutex> lock(mutex_);
        free_.push_back(&e);
    }

    DuckSession& db_;
    unsigned threads_;
    Make make_;
    std::vector<std::unique_ptr<DuckSession>> connections_;  // besides db_
    // One per connection; declared after them, so destroyed first (with their statements).
    std::vector<std::unique_ptr<Encoder>> encoders_;
    std::mutex mutex_;
    std::vector<Encoder*> free_;
};

}  // namespace taco::metadata
