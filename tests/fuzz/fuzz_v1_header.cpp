// libFuzzer target: the legacy v1 header parser (src/legacy/v1_header.cpp, Tortilla 0.5 / TACO
// 0.2) on arbitrary bytes, as a top-level file and as a nested tortilla. Any outcome but a parsed
// header whose ranges lie inside the input, or a taco::FormatError, is a bug.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "legacy/v1_header.hpp"
#include "memory_source.hpp"
#include "taco/errors.hpp"

namespace {

using taco::fuzz::MemorySource;

void parse(const MemorySource& src, bool nested) {
    try {
        const auto h = taco::legacy::read_v1_header(src, 0, src.size(), "fuzz", nested);
        if (h.footer_offset + h.footer_length > src.size()) __builtin_trap();
        if (h.footer_offset < taco::legacy::kV1HeaderSize || h.partitions == 0) __builtin_trap();
        if (h.kind == taco::legacy::V1Kind::Taco &&
            (nested || h.collection_offset + h.collection_length > src.size()))
            __builtin_trap();
    } catch (const taco::FormatError&) {
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const MemorySource src(data, size);
    parse(src, false);
    parse(src, true);
    return 0;
}
