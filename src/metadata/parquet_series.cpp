#include "metadata/parquet_series.hpp"

#include <algorithm>

#include "io/trace.hpp"

namespace taco::metadata {

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
    : pool_(db, threads,
            [options](DuckSession& on) { return std::make_unique<ParquetSeries>(on, options); }) {}

void ParquetSeriesPool::encode(size_t n,
                               const std::function<std::vector<TableColumn>(size_t)>& make,
                               const std::function<void(size_t, std::string&)>& take) {
    io::TraceScope t("duckdb: COPY series to parquet");
    pool_.encode(
        n, [&](ParquetSeries& series, size_t k) { return series.encode(make(k)); }, take);
}

}  // namespace taco::metadata
