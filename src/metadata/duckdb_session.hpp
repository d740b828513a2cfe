// A small, owned DuckDB connection: the only place (with its .cpp siblings in src/metadata/) that
// includes duckdb.h. Everything else talks to DuckDB through this interface.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "taco/parquet_codec.hpp"
#include "taco/value.hpp"

namespace taco::metadata {

/// Double-quotes an identifier for SQL (`internal:offset` -> "internal:offset").
std::string quote_identifier(std::string_view name);
/// Single-quotes a string literal for SQL.
std::string quote_literal(std::string_view text);

/// One column of an in-memory table to be handed to DuckDB. Cells are borrowed: the caller keeps
/// the values alive until the table has been written.
struct TableColumn {
    enum class Kind { Values, Int64, Strings };
    std::string name;
    DataType type;  // the SQL type written (for Int64: int64, for Strings: string)
    Kind kind = Kind::Values;
    std::vector<const Value*> values;       // Kind::Values (nullptr = null)
    std::vector<int64_t> ints;              // Kind::Int64
    std::vector<std::string_view> strings;  // Kind::Strings

    static TableColumn of_values(std::string name, DataType type, std::vector<const Value*> cells);
    static TableColumn of_int64(std::string name, std::vector<int64_t> cells);
    static TableColumn of_strings(std::string name, std::vector<std::string_view> cells);
    size_t rows() const;
};

/// Parquet writing options (FORMAT.md §4.1: the reference writes zstd everywhere, level 13 for
/// level tables). compression_level applies to zstd only.
struct ParquetOptions {
    int compression_level = 13;
    uint64_t row_group_size = 65536;
    ParquetCodec codec = ParquetCodec::Zstd;
};

/// The COPY options naming the codec: "COMPRESSION zstd, COMPRESSION_LEVEL 3" or
/// "COMPRESSION lz4_raw".
std::string parquet_codec_clause(const ParquetOptions& options);

class DuckSession {
  public:
    /// An in-memory database with `threads` worker threads (0 = DuckDB's default).
    explicit DuckSession(int threads = 0);
    ~DuckSession();
    DuckSession(const DuckSession&) = delete;
    DuckSession& operator=(const DuckSession&) = delete;
    /// A session can be opened on one thread and handed to another (load() opens it early).
    DuckSession(DuckSession&& other) noexcept;

    /// A new connection to the database of `database_of`: its own transactions, settings and
    /// registered functions, the database (opening one costs ~20 ms of CPU) shared. The
    /// database stays open while any session connected to it lives. For writers (create,
    /// TACOCAT): the reader modules (result_scan's collect function) register catalog functions
    /// under fixed names, so two reader sessions must not share a database.
    struct SameDatabase {};
    DuckSession(const DuckSession& database_of, SameDatabase);
    std::unique_ptr<DuckSession> another_connection() const;
    DuckSession& operator=(DuckSession&&) = delete;

    /// Runs statements that return nothing useful. Throws QueryError with DuckDB's message.
    void exec(const std::string& sql);
    /// Runs a query and returns the first column of the first row as text ("" when no row).
    std::string query_scalar(const std::string& sql);

    /// Writes `columns` as one Parquet file at `path` (which may be /proc/self/fd/N).
    void write_parquet(const std::vector<TableColumn>& columns, const std::string& path,
                       const ParquetOptions& options);

    /// Runs `sql` (any statement: COPY, CREATE TABLE AS, ...) in which the table function
    /// `taco_stream()` serves `columns`, e.g. a map of new ids joined to a level table. The
    /// function is scanned once per statement.
    void exec_with_stream(const std::string& sql, const std::vector<TableColumn>& columns);
    /// A statement over `taco_stream()` prepared once and run for many column sets of one
    /// schema (names and types): planning a COPY costs about as much as writing a folder's ten
    /// rows, so a series of small tables (a level's __meta__ files) is planned once.
    class StreamStatement {
      public:
        StreamStatement(StreamStatement&& other) noexcept;
        StreamStatement& operator=(StreamStatement&&) = delete;
        ~StreamStatement();
        /// Runs the statement with taco_stream() serving `columns`; SchemaError when their
        /// names or types are not the prepared ones.
        void run(const std::vector<TableColumn>& columns);
        /// Whether `columns` have the prepared schema (so run() accepts them).
        bool fits(const std::vector<TableColumn>& columns) const;

      private:
        friend class DuckSession;
        StreamStatement(DuckSession& db, const std::vector<TableColumn>& schema, void* prepared);
        DuckSession* db_;
        std::vector<std::pair<std::string, DataType>> schema_;
        void* prepared_;  // duckdb_prepared_statement
    };
    /// Prepares `sql` (as exec_with_stream takes it) for columns of the schema of `schema`.
    StreamStatement prepare_with_stream(const std::string& sql,
                                        const std::vector<TableColumn>& schema);
    /// The COPY that write_parquet runs for `columns` to `target` (an SQL-safe path text).
    static std::string copy_to_parquet_sql(const std::vector<TableColumn>& columns,
                                           const std::string& target,
                                           const ParquetOptions& options);

    /// False when a table with these columns must keep Parquet's V1 encodings (an int32 column at
    /// any depth: pyarrow rejects DuckDB's V2 int32 delta pages, docs/FORMAT-DECISIONS.md).
    static bool parquet_v2_safe(const std::vector<ColumnType>& columns);

    /// Makes the statement running on this session (from another thread) fail with an
    /// "Interrupted" QueryError. Every session also answers io::run_cancel_hooks().
    void interrupt();

    /// Throws QueryError (saying to load() again) in a forked child of the process that opened
    /// this session: DuckDB's worker threads stayed in the parent, and a lock one of them held at
    /// the fork stays held. Every statement checks; the destructor there leaks the database
    /// instead of closing it. READER.md §11.
    void check_not_inherited() const;

    /// Raw connection handle (duckdb_connection) for the other metadata/*.cpp files.
    void* raw_connection() const;

    /// State a metadata/*.cpp module keeps per session under `key` (e.g. the functions it
    /// registered and what they serve); empty until the module sets it. Destroyed after the
    /// database is closed, so DuckDB callbacks may point at it.
    std::shared_ptr<void>& module_state(const std::string& key);

    struct Impl;  // public so the table-function callbacks in the .cpp can reach it

  private:
    void connect();
    void register_stream();
    std::string own_stream_sql(const std::string& sql) const;
    void check_rows(const std::vector<TableColumn>& columns) const;
    std::unique_ptr<Impl> impl_;
};

/// Sets the session's time zone to UTC. Zoned timestamps are instants; DuckDB exports them to
/// Arrow in the session's zone (the machine's, e.g. "Etc/UTC" or "Europe/Madrid"). UTC makes
/// them timestamp[us, tz=UTC], the type `info`, field_schema and tacotoolbox name, on every
/// machine. (A DuckDB without ICU has no time zones: its zoned timestamps are UTC already.)
void use_utc(DuckSession& db);

}  // namespace taco::metadata
