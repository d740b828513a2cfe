// Small Parquet files cut from the rows of one query: an export's __meta__ tables are row ranges
// of a staged level (each FOLDER's children), of whatever column types the source has. The rows
// are fetched once and held as DuckDB vectors; a table function serves one range at a time to a
// COPY prepared once per connection, as ParquetSeries does for C++ columns. One COPY planned and
// run per FOLDER cost ~2 ms; a range through the prepared COPY costs a fifth of that
// (docs/FORMAT-DECISIONS.md, "`__meta__` tables").
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "metadata/duckdb_session.hpp"

namespace taco::metadata {

class ParquetSlices {
  public:
    /// Runs `select` on `db` and holds every row it returns, in its order. `copy_options` is the
    /// option list of the COPY that writes a range ("FORMAT parquet, COMPRESSION zstd, ...").
    /// QueryError when the query fails.
    ParquetSlices(DuckSession& db, const std::string& select, std::string copy_options);
    ~ParquetSlices();
    ParquetSlices(const ParquetSlices&) = delete;
    ParquetSlices& operator=(const ParquetSlices&) = delete;

    size_t rows() const;

    /// Rows [begin, end) as one Parquet file: the bytes `COPY (<select> rows begin..end-1) TO`
    /// writes with the options.
    std::string encode(size_t begin, size_t end);

    /// encode(range(k)) for k in 0 .. n-1, on up to one connection of `db`'s database per core
    /// (at most four) at once, handing each file to take(k, bytes) on the calling thread in
    /// index order. The first failure in index order is rethrown; the files of the batches
    /// before it were taken.
    void encode_all(size_t n, const std::function<std::pair<size_t, size_t>(size_t)>& range,
                    const std::function<void(size_t, std::string&)>& take);

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace taco::metadata
