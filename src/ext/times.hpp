// The time triple shared by STAC and ISTAC: start, end, middle as typed timestamp values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "taco/value.hpp"

namespace taco::ext::detail {

struct TimeColumns {
    Value start, end, middle;
};

/// Checks start <= end and start <= middle <= end (SchemaError naming `prefix`time_end or
/// time_middle) and fills middle with floor((start + end) / 2) — Python's `//`, as tacotoolbox —
/// when it is absent and both ends are known.
TimeColumns time_columns(std::optional<int64_t> start, std::optional<int64_t> end,
                         std::optional<int64_t> middle, std::string_view prefix,
                         std::string_view sample_id);

}  // namespace taco::ext::detail
