// The fixed 200-byte header of a legacy v1 file (spec/tortilla-0.5.0.md, spec/taco-0.2.0.md), as
// pytortilla 0.5 and tacotoolbox 0.5 write it: magic (2), FOOTER offset (8), FOOTER length (8),
// data partitions (8), and for a TACO the COLLECTION offset (8) and length (8); the rest is zero.
// Every number is little-endian. A nested tortilla (a FOLDER sample) is a whole tortilla inside
// its parent's DATA pile, with offsets relative to its own first byte.
#pragma once

#include <cstdint>
#include <string>

#include "io/byte_source.hpp"

namespace taco::legacy {

inline constexpr uint64_t kV1HeaderSize = 200;

enum class V1Kind { Tortilla, Taco };

struct V1Header {
    V1Kind kind = V1Kind::Tortilla;
    uint64_t footer_offset = 0;  // relative to the tortilla's first byte
    uint64_t footer_length = 0;
    uint64_t partitions = 1;         // DP: how many .NNNN.part files the dataset has
    uint64_t collection_offset = 0;  // TACO only
    uint64_t collection_length = 0;
};

/// "Tortilla 0.5" or "TACO 0.2", for messages.
const char* to_string(V1Kind kind);

/// Reads and checks the header of the tortilla that spans [base, base + length) of `source`.
/// `what` names it in errors ("x.taco", "x.taco: nested tortilla 'region_0'"). FormatError when:
/// the bytes are fewer than a header (truncated); the magic is neither "#y" nor "WX" (or "WX"
/// for a nested tortilla, which must be a plain tortilla); the reserved bytes are not zero (a
/// layout newer than the ones this reader knows); DP is 0 or absurd; the FOOTER or COLLECTION
/// range lies outside the tortilla (truncated file or corrupt header); the FOOTER does not start
/// and end with Parquet's PAR1 magic.
V1Header read_v1_header(const io::ByteSource& source, uint64_t base, uint64_t length,
                        const std::string& what, bool nested);

}  // namespace taco::legacy
