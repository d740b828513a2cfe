// The DuckDB session of a dataset creation, opened on a second thread. Opening DuckDB takes
// 15-25 ms, and nothing needs it at first: a creation lists and reads its input files before it
// writes a Parquet table. `taco create` opens one session for the metadata table it reads and the
// tables it writes, instead of one for each; a multi-part create opens one database for all its
// parts and its .tacocat/ index, each with a connection of its own (a connection costs ~0.1 ms).
#pragma once

#include <filesystem>
#include <future>
#include <memory>

#include "metadata/duckdb_session.hpp"
#include "taco/writer.hpp"

namespace taco::format {

class PendingSession {
  public:
    using Opening = std::shared_future<std::shared_ptr<metadata::DuckSession>>;

    // One DuckDB thread: reading one table and writing one Parquet file at a time gain nothing
    // from more (100,000 rows: same time), while a worker thread costs CPU and makes the caller
    // poll for its results.
    PendingSession() : opening_(open_database()) {}
    /// A session of its own on the database `database` is opening (shared by parallel writers).
    explicit PendingSession(Opening database) : opening_(std::move(database)), own_(false) {}

    /// Starts opening a database on another thread; several PendingSessions may share it.
    static Opening open_database() {
        return std::async(std::launch::async,
                          [] { return std::make_shared<metadata::DuckSession>(1); })
            .share();
    }

    /// Waits for the session; rethrows what opening it threw. Not for concurrent callers of the
    /// same PendingSession (sessions sharing one database may be used from different threads).
    metadata::DuckSession& get() {
        if (session_) return *session_;
        if (own_) {
            owned_ = opening_.get();
            session_ = owned_.get();
        } else {
            connection_ = opening_.get()->another_connection();
            session_ = connection_.get();
        }
        return *session_;
    }

  private:
    Opening opening_;
    bool own_ = true;
    std::shared_ptr<metadata::DuckSession> owned_;
    std::unique_ptr<metadata::DuckSession> connection_;
    metadata::DuckSession* session_ = nullptr;
};

/// taco::create writing its Parquet tables through `db`.
CreateResult create(const Taco& taco, const std::filesystem::path& output,
                    const CreateOptions& options, PendingSession& db);

}  // namespace taco::format
