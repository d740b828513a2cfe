// libFuzzer target: the 157-byte TACO_HEADER parser (FORMAT.md §2.2) on arbitrary bytes. Any
// outcome but a parsed header or a taco::FormatError is a bug.
#include <cstddef>
#include <cstdint>

#include "format/taco_header.hpp"
#include "taco/errors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        const taco::format::TacoHeader h = taco::format::parse_taco_header(data, size, "fuzz");
        if (h.slots.size() > taco::format::kTacoHeaderMaxSlots) __builtin_trap();
        // What is parsed must encode back to the same payload.
        const std::string payload = taco::format::encode_taco_header_payload(h);
        if (payload.size() != taco::format::kTacoHeaderPayloadSize) __builtin_trap();
    } catch (const taco::FormatError&) {
    }
    return 0;
}
