// The cheap first check of every level table a reader is about to hand to DuckDB: a Parquet file
// starts and ends with "PAR1". A range or file that points anywhere else is caught here, by name,
// long before DuckDB would give a less specific error. Used for FOLDER, remote and collection
// level tables (the ZIP reader words its own message around the TACO_HEADER slot).
#pragma once

#include <cstdint>
#include <string>

#include "io/byte_source.hpp"

namespace taco::format {

/// FormatError "`dataset`: `what` (N bytes) is not a Parquet file (no PAR1 magic)" unless the
/// `size` bytes at `offset` of `src` are at least 12 and start and end with PAR1.
void require_parquet_bytes(const io::ByteSource& src, uint64_t offset, uint64_t size,
                           const std::string& dataset, const std::string& what);

}  // namespace taco::format
