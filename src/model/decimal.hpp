// Whole numbers written as text in untrusted input (JSON keys, GDAL paths): parsed without
// std::stoul's exceptions, whose std::out_of_range on a long run of digits escaped load() and
// validate() (found by fuzz_collection).
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>

namespace taco {

/// `text` as a number when it is one or more ASCII digits (leading zeros allowed) and fits in 64
/// bits; nullopt for anything else: empty, a sign, a space or any other character, or a value
/// beyond 2^64 - 1.
inline std::optional<uint64_t> parse_decimal(std::string_view text) {
    uint64_t value = 0;
    if (text.empty()) return std::nullopt;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

}  // namespace taco
