// What a Parquet file's footer says about its table, read without DuckDB: the row count, the
// bytes that decide the table's columns and types (the schema and the key/value metadata, where
// writers keep the Arrow schema), and each column's NULL count from its statistics. Two files whose
// `table_bytes` are equal bind to the same columns with the same types. Navigation uses it to read
// many small `__meta__` files in one DuckDB statement only when they agree
// (query/meta_readahead.cpp); a file it cannot parse simply is not batched. load() checks level 0's
// row count and NULL ids from it while DuckDB starts (query/load_checks.cpp).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace taco::format {

struct ParquetFooter {
    int64_t num_rows = 0;
    int64_t row_group_rows = 0;
    uint64_t file_size = 0;   // the whole file's, when read from a file (0 from bytes)  // the sum
                              // of the row groups' own counts (equal in a sound file)
    std::string table_bytes;  // FileMetaData fields 2 (schema) and 5 (key/value metadata)
    /// NULLs of each top-level column, summed over the row groups from their statistics;
    /// nullopt for a column some row group has no null count for (a writer may omit them).
    std::map<std::string, std::optional<int64_t>, std::less<>> null_counts;
};

/// The footer at the end of `tail`: the last bytes of a Parquet file (at least the footer, its
/// 4-byte length and "PAR1"; more before them is fine). nullopt when they are not the end of a
/// Parquet file or the footer cannot be walked (truncated, corrupt, nested deeper than Parquet
/// ever nests): never reads outside `tail`.
std::optional<ParquetFooter> parse_parquet_footer(std::string_view tail);

/// The footer of the Parquet file open as `fd` (a local file or a memfd), by two preads.
std::optional<ParquetFooter> read_parquet_footer(int fd);

/// The footer of the local file `path`; nullopt unless it is a regular file (never blocks on a
/// FIFO) holding a footer that parses.
std::optional<ParquetFooter> read_parquet_footer_file(const std::string& path);

}  // namespace taco::format
