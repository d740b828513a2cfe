// The DuckDB session of a dataset creation, opened on a second thread. Opening DuckDB takes
// 15-25 ms, and nothing needs it at first: a creation lists and reads its input files before it
// writes a Parquet table. `taco create` opens one session for the metadata table it reads and the
// tables it writes, instead of one for each.
#pragma once

#include <filesystem>
#include <future>
#include <memory>

#include "metadata/duckdb_session.hpp"
#include "taco/writer.hpp"

namespace taco::format {

class PendingSession {
  public:
    // One DuckDB thread: reading one table and writing one Parquet file at a time gain nothing
    // from more (100,000 rows: same time), while a worker thread costs CPU and makes the caller
    // poll for its results.
    PendingSession()
        : opening_(std::async(std::launch::async,
                              [] { return std::make_unique<metadata::DuckSession>(1); })) {}
    /// Waits for the session; rethrows what opening it threw. Not for concurrent callers.
    metadata::DuckSession& get() {
        if (!session_) session_ = opening_.get();
        return *session_;
    }

  private:
    std::future<std::unique_ptr<metadata::DuckSession>> opening_;
    std::unique_ptr<metadata::DuckSession> session_;
};

/// taco::create writing its Parquet tables through `db`.
CreateResult create(const Taco& taco, const std::filesystem::path& output,
                    const CreateOptions& options, PendingSession& db);

}  // namespace taco::format
