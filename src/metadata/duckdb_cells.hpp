// Reading the cells of DuckDB vectors in place: validity bits and duckdb_string_t. Shared by the
// result table and the Parquet scan that fills it. Includes duckdb.h: only for src/metadata/*.cpp.
#pragma once

#include <duckdb.h>

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace taco::metadata {

/// Whether cell `i` is set; a null mask means every cell is.
inline bool is_valid(const uint64_t* validity, size_t i) {
    return !validity || (validity[i >> 6] >> (i & 63)) & 1;
}

/// Whether DuckDB keeps the string in the slot itself (up to 12 bytes) rather than behind a
/// pointer. Either way the first 4 bytes sit at the same place.
inline bool is_inlined(const duckdb_string_t& s) {
    return s.value.inlined.length <= sizeof s.value.inlined.inlined;
}

/// The text of string slot `i` of a VARCHAR/BLOB vector's data.
inline std::string_view string_of(const void* data, size_t i) {
    const auto& s = static_cast<const duckdb_string_t*>(data)[i];
    return {is_inlined(s) ? s.value.inlined.inlined : s.value.pointer.ptr, s.value.inlined.length};
}

}  // namespace taco::metadata
