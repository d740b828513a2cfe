#include "metadata/parquet_series.hpp"

#include <algorithm>

#include "io/parallel.hpp"
#include "io/trace.hpp"

namespace taco::metadata {

// Below this many tables per thread, a second connection (opening it, registering taco_stream()
// and preparing the COPY: ~1 ms) costs more than it saves.
constexpr size_t kTablesPerThread = 32;

ParquetSeries::ParquetSeries(DuckSession& db, const ParquetOptions& options)
    : db_(db), options_(options), mem_("taco-parquet-series") {}

std::string ParquetSeries::encode(const std::vector<TableColumn>& columns) {
    if (!copy_ || !copy_->fits(columns)) {
        copy_.reset();
        copy_.emplace(db_.prepare_with_stream(
            DuckSession::copy_to_parquet_sql(columns, mem_.proc_path(), options_), columns));
    }
    // Emptied first, so the memfd holds the new file only, whatever flags DuckDB opens it with.
    mem_.clear();
    copy_->run(columns);
    return mem_.read_all();
}

ParquetSeriesPool::ParquetSeriesPool(DuckSession& db, const ParquetOptions& options,
                                     unsigned threads)
    : db_(db), options_(options), threads_(std::max(1u, threads)) {
    series_.push_back(std::make_unique<ParquetSeries>(db_, options_));
    free_.push_back(series_.back().get());
}

// The series (and their prepared statements) go before the connections they were prepared on.
ParquetSeriesPool::~ParquetSeriesPool() {
    series_.clear();
}

ParquetSeries& ParquetSeriesPool::acquire() {
    std::lock_guard<std::mutex> lock(mutex_);
    ParquetSeries* s = free_.back();  // never empty: one series per thread of the batch
    free_.pop_back();
    return *s;
}

void ParquetSeriesPool::release(ParquetSeries& series) {
    std::lock_guard<std::mutex> lock(mutex_);
    free_.push_back(&series);
}

void ParquetSeriesPool::encode(size_t n,
                               const std::function<std::vector<TableColumn>(size_t)>& make,
                               const std::function<void(size_t, std::string&)>& take) {
    std::vector<std::string> files;
    for (size_t begin = 0; begin < n; begin += kBatch) {
        const size_t count = std::min(kBatch, n - begin);
        encode_batch(begin, count, make, files);
        for (size_t k = 0; k < count; ++k) take(begin + k, files[k]);
    }
}

void ParquetSeriesPool::encode_batch(size_t begin, size_t n,
                                     const std::function<std::vector<TableColumn>(size_t)>& make,
                                     std::vector<std::string>& out) {
    io::TraceScope t("duckdb: COPY series to parquet");
    const unsigned threads =
        static_cast<unsigned>(std::clamp<size_t>(n / kTablesPerThread, 1, threads_));
    while (series_.size() < threads) {
        connections_.push_back(db_.another_connection());
        series_.push_back(std::make_unique<ParquetSeries>(*connections_.back(), options_));
        free_.push_back(series_.back().get());
    }
    out.assign(n, std::string());
    io::parallel_for(n, threads, [&](size_t k) {
        std::vector<TableColumn> columns = make(begin + k);
        ParquetSeries& series = acquire();
        try {
            out[k] = series.encode(columns);
        } catch (...) {
            release(series);
            throw;
        }
        release(series);
    });
}

}  // namespace taco::metadata
