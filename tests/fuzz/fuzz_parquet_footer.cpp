// libFuzzer target: the Parquet footer walker (format/parquet_footer.cpp) on arbitrary bytes, as
// load() meets them at the end of a level table and read-ahead at the end of a `__meta__`. Any
// outcome but a footer or nullopt, or a read outside the input, is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "format/parquet_footer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const auto footer = taco::format::parse_parquet_footer(
        std::string_view(reinterpret_cast<const char*>(data), size));
    if (footer && (footer->num_rows < 0 || footer->table_bytes.empty())) __builtin_trap();
    return 0;
}
