// Scalar functions written in C++ and called from SQL, for the rooms that must not include
// duckdb.h (spatial/: the bbox predicate). DuckDB calls them on its worker threads, one chunk of
// up to 2048 rows at a time, so a function sees whole vectors and pays no per-row dispatch.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "metadata/duckdb_session.hpp"

namespace taco::metadata {

/// The SQL types a C++ scalar function can take.
enum class UdfType { Blob, Varchar, Double, BigInt };

/// The arguments of one call: `rows` rows, argument `a` of row `r`. Strings and blobs are views
/// into DuckDB's vectors, valid during the call only.
class UdfArgs {
  public:
    size_t rows() const { return rows_; }
    // Inline: they run for every argument of every row (filter_bbox: 9 per row). Validity is the
    // C API's one bit per row, 64 rows per word.
    bool is_null(size_t a, size_t r) const {
        const uint64_t* v = columns_[a].validity;
        return v && ((v[r >> 6] >> (r & 63)) & 1) == 0;
    }
    std::string_view get_string(size_t a, size_t r) const;  // Blob, Varchar
    double get_double(size_t a, size_t r) const {           // Double
        return static_cast<const double*>(columns_[a].data)[r];
    }
    int64_t get_int(size_t a, size_t r) const {  // BigInt
        return static_cast<const int64_t*>(columns_[a].data)[r];
    }

    struct Column {
        const void* data;
        const uint64_t* validity;  // nullptr: every row valid
    };
    UdfArgs(size_t rows, std::vector<Column> columns) : rows_(rows), columns_(std::move(columns)) {}

  private:
    size_t rows_;
    std::vector<Column> columns_;
};

/// Fills `out[r]` for every row: 0 false, 1 true, 2 NULL. An exception (any std::exception)
/// fails the statement with its message; it may be called from several threads at once.
using BoolUdf = std::function<void(const UdfArgs& args, std::vector<uint8_t>& out)>;

/// Registers `name(params...) -> BOOLEAN` on `db`'s connection (once per name: a second call is a
/// no-op). NULL arguments are passed to `fn` (it decides; DuckDB may probe a function with NULLs
/// standing for a column when it pushes a one-column filter into a scan), on any thread.
void register_bool_function(DuckSession& db, const std::string& name,
                            const std::vector<UdfType>& params, BoolUdf fn);

/// SQL names of the functions register_float_passthrough adds: they return their FLOAT / DOUBLE
/// argument unchanged.
inline constexpr const char* kFloatPassthrough = "taco_float_as_stored";
inline constexpr const char* kDoublePassthrough = "taco_double_as_stored";

/// Registers kFloatPassthrough(FLOAT) and kDoublePassthrough(DOUBLE) on `db`'s connection (once).
/// They exist to hide a column's Parquet min/max from DuckDB: writers such as pyarrow leave NaN
/// out of them (as the Parquet format says), and DuckDB 1.4, for which NaN is the largest value,
/// trusts them, so `x = 'NaN'`, `x >= 'inf'` found nothing and `x <= 50` kept NaN rows (duckdb
/// issue 25521). A filter on a passed-through column still runs inside the scan, after reading.
void register_float_passthrough(DuckSession& db);

/// Registers `name(BIGINT row) -> BIGINT` on `db`'s connection (once per name): `values[row]`,
/// NULL for a NULL or out-of-range row. How a view reads per-row values computed in C++ beside a
/// Parquet scan (`file_row_number`) without a join, which would cost the scan its plan and its
/// row order (query/level_offsets.cpp).
void register_int64_lookup(DuckSession& db, const std::string& name,
                           std::shared_ptr<const std::vector<int64_t>> values);

}  // namespace taco::metadata
