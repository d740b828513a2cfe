// A query result kept as DuckDB data chunks, with typed cell access on top. Nothing is copied
// row by row: the chunks are the storage, so a million-row result costs what DuckDB's vectors
// cost, and the same chunks can later be exported through DuckDB's Arrow conversion
// (duckdb_data_chunk_to_arrow) without another copy. The chunks come from a query result
// (fetch), from the threads of a Parquet scan (scan_parquet, result_scan.cpp) or from another
// table (derive).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "metadata/duckdb_session.hpp"
#include "taco/value.hpp"

namespace taco::metadata {

/// Decides which result columns to keep, by name (nullptr keeps all).
using ColumnFilter = std::function<bool(const std::string& name)>;

/// Names and TACO types of the columns `sql` returns, from binding it (nothing runs). Types with
/// no TACO equivalent are reported as what ResultTable::fetch casts them to. QueryError with
/// DuckDB's message when the query does not bind.
std::vector<ColumnType> describe_query(DuckSession& db, const std::string& sql);

/// The names of the columns `sql` returns whose DuckDB type has no TACO equivalent, i.e. that
/// describe_query and ResultTable::fetch read through a CAST (unsigned or small integers,
/// TIME, UUID, ...). QueryError as describe_query.
std::vector<std::string> columns_read_through_a_cast(DuckSession& db, const std::string& sql);

class ResultTable {
  public:
    /// Binds `sql`, keeps the columns `keep` accepts, casts the types TACO has no equivalent for
    /// (small/unsigned/huge ints -> INTEGER/BIGINT, DECIMAL -> DOUBLE, other timestamps ->
    /// TIMESTAMP, ARRAY -> LIST, DATE/TIME/INTERVAL/UUID/ENUM/STRUCT/MAP/UNION -> VARCHAR), runs
    /// it and keeps every chunk. QueryError with DuckDB's message on failure.
    /// `materialize` runs the query to completion before the first chunk is taken, for plans
    /// DuckDB does not stream reliably (a concatenation's union of many views; see
    /// result_table.cpp).
    static std::shared_ptr<const ResultTable> fetch(DuckSession& db, const std::string& sql,
                                                    const ColumnFilter& keep = nullptr,
                                                    bool materialize = false);

    /// fetch(), handing over the rows as they come: `batch` is called with a table of one DuckDB
    /// chunk at a time, in order, and only that chunk is kept (a result of any size streams in
    /// the memory of one chunk). An exception from `batch` stops the query and propagates.
    static void stream(DuckSession& db, const std::string& sql,
                       const std::function<void(std::shared_ptr<const ResultTable>)>& batch,
                       bool materialize = false);

    /// Every row of the columns `columns` of the Parquet file `path`, in file order, without
    /// going through a query result: DuckDB decodes on all its threads and each thread copies
    /// what it decoded straight into the table's chunks (result_scan.cpp). For a whole level
    /// table this is the fastest read there is. nullptr when a column needs a cast or the file
    /// cannot be scanned this way (the caller then uses fetch()); QueryError with DuckDB's
    /// message when the file cannot be read or a column does not exist.
    static std::shared_ptr<const ResultTable> scan_parquet(DuckSession& db, const std::string& path,
                                                           const std::vector<std::string>& columns);

    /// A result with no rows and no columns.
    static std::shared_ptr<const ResultTable> empty();

    /// The rows of one chunk, for derive()'s callbacks: cell access by (row within the chunk,
    /// column) with no lookup and no type check (the caller resolved its columns beforehand).
    class ChunkRows {
      public:
        /// Row number of cell `i` in the whole table.
        size_t row(size_t i) const { return first_row_ + i; }
        bool is_null(size_t i, size_t col) const;
        /// String and Binary columns.
        std::string_view get_string(size_t i, size_t col) const;
        /// Int32 and Int64 columns.
        int64_t get_int(size_t i, size_t col) const;

      private:
        friend class ResultTable;
        ChunkRows(const ResultTable& t, size_t chunk);
        const ResultTable& table_;
        size_t chunk_;
        size_t first_row_;
    };
    /// The rows derive() leaves out: those whose String column `column` is NULL or starts with
    /// `prefix` (padding samples, whose ids are `__TACOPAD__N`). Settled by the 4 bytes DuckDB
    /// keeps inline for every string when they differ, so long ids that do not match are never
    /// fetched from the heap, and a chunk with no such row is checked in one tight loop.
    /// Rows outside [first, last) are left out as well (one file's rows of a multi-file read).
    struct HiddenRows {
        size_t column = 0;
        std::string prefix;
        size_t first = 0;
        size_t last = SIZE_MAX;
    };
    /// Fills `out` with the value of a computed text cell for row `i` of a chunk; false = NULL.
    using StringColumn = std::function<bool(const ChunkRows& rows, size_t i, std::string& out)>;
    /// A table made from `src` without SQL: its `columns` (in that order) for the rows `hidden`
    /// does not leave out, plus a last text column `name` computed by `value`. Chunks whose rows
    /// are all kept share the source's vectors; the others copy only the kept rows. Chunks are
    /// built on two threads when there are many, so `value` must be safe to call concurrently
    /// (read-only lambdas are). Used where DuckDB would spend more on binding an expression than on
    /// the work (small tables), or on string building (a million gdal_vsi paths).
    static std::shared_ptr<const ResultTable> derive(std::shared_ptr<const ResultTable> src,
                                                     const std::vector<size_t>& columns,
                                                     const HiddenRows& hidden,
                                                     const std::string& name,
                                                     const StringColumn& value);
    /// The same, except that the computed column of each chunk is filled when a cell of it is
    /// first read (any accessor, raw_chunks(), for_each_string), from any thread. `value` is
    /// kept until then, so it must own whatever it captures (no references to locals); the
    /// table keeps `src` alive for it.
    static std::shared_ptr<const ResultTable> derive_lazy(std::shared_ptr<const ResultTable> src,
                                                          const std::vector<size_t>& columns,
                                                          const HiddenRows& hidden,
                                                          const std::string& name,
                                                          StringColumn value);

    ~ResultTable();
    ResultTable(const ResultTable&) = delete;
    ResultTable& operator=(const ResultTable&) = delete;

    size_t rows() const { return rows_; }
    size_t columns() const { return schema_.size(); }
    const std::vector<ColumnType>& schema() const { return schema_; }

    bool is_null(size_t row, size_t col) const;
    bool get_bool(size_t row, size_t col) const;
    /// Int32, Int64 and Timestamp columns.
    int64_t get_int(size_t row, size_t col) const;
    /// Float32 and Float64 columns.
    double get_double(size_t row, size_t col) const;
    /// String and Binary columns; the view lives as long as the table.
    std::string_view get_string(size_t row, size_t col) const;
    Value get_value(size_t row, size_t col) const;
    /// Calls fn(row, text) for every non-null cell of String/Binary column `col`, in row order,
    /// walking the chunks directly (no per-cell lookup).
    void for_each_string(size_t col, const std::function<void(size_t, std::string_view)>& fn) const;

    /// The duckdb_data_chunk handles holding the rows, in order (for Arrow export); a computed
    /// column of derive_lazy() is filled first.
    const std::vector<void*>& raw_chunks() const;

    /// derive_lazy()'s computed column, if the table has one.
    std::optional<size_t> computed_column() const;
    /// The chunk handles without filling the computed column, whose vector must then not be
    /// read: for an exporter that makes the column itself with compute_cell().
    const std::vector<void*>& chunks_unfilled() const { return chunks_; }
    /// The computed column's value at row `i` of chunk `chunk`, made now (nothing is stored);
    /// false = NULL.
    bool compute_cell(size_t chunk, size_t i, std::string& out) const;

    struct Vec;  // one DuckDB vector: data, validity and (for lists) its child

  private:
    struct LazyColumn;
    ResultTable();                  // defined where Vec and LazyColumn are complete
    void fill(size_t chunk) const;  // derive_lazy(): makes the computed strings of one chunk
    void fill_all() const;          // ... of every chunk, on two threads
    void add_chunk(void* chunk);    // takes ownership of a duckdb_data_chunk
    void finish();
    struct Cell {
        const Vec* vec;
        size_t index;
    };
    Cell locate(size_t row, size_t col) const;
    const Cell typed(size_t row, size_t col, std::initializer_list<TypeId> ids,
                     const char* what) const;

    std::vector<ColumnType> schema_;
    std::vector<void*> chunks_;              // duckdb_data_chunk handles, owned
    std::vector<size_t> chunk_start_;        // first row of each chunk
    size_t uniform_chunk_rows_ = 0;          // every chunk but the last has this many rows (0: no)
    int uniform_chunk_shift_ = -1;           // log2 of it when it is a power of two (2048 usually)
    std::vector<std::vector<Vec>> vectors_;  // [chunk][column]
    std::unique_ptr<LazyColumn> lazy_;       // derive(): the computed column and its text
    std::vector<std::unique_ptr<char[]>> heaps_;  // scan_parquet(): the bytes of long strings
    size_t rows_ = 0;
};

}  // namespace taco::metadata
