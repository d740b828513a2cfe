#include "format/parquet_magic.hpp"

#include <string_view>

#include "taco/errors.hpp"

namespace taco::format {

void require_parquet_bytes(const io::ByteSource& src, uint64_t offset, uint64_t size,
                           const std::string& dataset, const std::string& what) {
    char head[4] = {}, tail[4] = {};
    if (size >= 12) {
        src.read_at(offset, head, 4, what);
        src.read_at(offset + size - 4, tail, 4, what);
    }
    if (size < 12 || std::string_view(head, 4) != "PAR1" || std::string_view(tail, 4) != "PAR1") {
        throw FormatError(dataset + ": " + what + " (" + std::to_string(size) +
                          " bytes) is not a Parquet file (no PAR1 magic)");
    }
}

}  // namespace taco::format
