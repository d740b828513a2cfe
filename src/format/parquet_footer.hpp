// What a Parquet file's footer says about its table, read without DuckDB: the row count, and the
// bytes that decide the table's columns and types (the schema and the key/value metadata, where
// writers keep the Arrow schema). Two files whose `table_bytes` are equal bind to the same
// columns with the same types. Navigation uses it to read many small `__meta__` files in one
// DuckDB statement only when they agree (query/meta_readahead.cpp); a file it cannot parse
// simply is not batched.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace taco::format {

struct ParquetFooter {
    int64_t num_rows = 0;
    std::string table_bytes;  // FileMetaData fields 2 (schema) and 5 (key/value metadata)
};

/// The footer at the end of `tail`: the last bytes of a Parquet file (at least the footer, its
/// 4-byte length and "PAR1"; more before them is fine). nullopt when they are not the end of a
/// Parquet file or the footer cannot be walked (truncated, corrupt, nested deeper than Parquet
/// ever nests): never reads outside `tail`.
std::optional<ParquetFooter> parse_parquet_footer(std::string_view tail);

/// The footer of the Parquet file open as `fd` (a local file or a memfd), by two preads.
std::optional<ParquetFooter> read_parquet_footer(int fd);

}  // namespace taco::format
