// Series of small Parquet files of one schema: a level's __meta__ tables, hundreds of thousands
// of them in a large hierarchy. Each file is the COPY that write_parquet runs, prepared once per
// schema (planning it cost about as much as writing a folder's ten rows), and a pool runs the
// series on several connections of one database at once (docs/FORMAT-DECISIONS.md, "`__meta__`
// tables").
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "io/memfd.hpp"
#include "metadata/duckdb_session.hpp"
#include "metadata/encoder_pool.hpp"

namespace taco::metadata {

/// One connection's series, written into one reused memfd.
class ParquetSeries {
  public:
    ParquetSeries(DuckSession& db, const ParquetOptions& options);

    /// `columns` as one Parquet file: the bytes write_parquet would write.
    std::string encode(const std::vector<TableColumn>& columns);

  private:
    DuckSession& db_;
    ParquetOptions options_;
    io::MemFd mem_;
    std::optional<DuckSession::StreamStatement> copy_;  // for the schema of the last call
};

/// Series on up to `threads` connections: `db` and, when a batch is large enough to share,
/// connections of their own to the same database (opened once, on first need).
class ParquetSeriesPool {
  public:
    ParquetSeriesPool(DuckSession& db, const ParquetOptions& options, unsigned threads);

    /// Encodes the tables make(0) .. make(n - 1) a batch at a time (EncoderPool::kBatch files
    /// held at most) and hands each file to take(k, bytes) on the calling thread, in index
    /// order. `make` runs on the pool's threads at once: it must only read shared state. The
    /// first failure in index order is rethrown; the files before its batch have been taken.
    void encode(size_t n, const std::function<std::vector<TableColumn>(size_t)>& make,
                const std::function<void(size_t, std::string&)>& take);

  private:
    EncoderPool<ParquetSeries> pool_;
};

}  // namespace taco::metadata
