#include "ext/times.hpp"

#include "ext/crs.hpp"
#include "model/time_format.hpp"
#include "taco/errors.hpp"

namespace taco::ext::detail {
namespace {

Value stamp(std::optional<int64_t> t) {
    return t ? Value::timestamp(*t) : Value::null(DataType::timestamp());
}

std::string field(std::string_view prefix, const char* name) {
    return std::string(prefix) + name;
}

// Floor of (a + b) / 2 without overflowing int64.
int64_t floor_mid(int64_t a, int64_t b) {
    return (a >> 1) + (b >> 1) + (a & b & 1);
}

}  // namespace

TimeColumns time_columns(std::optional<int64_t> start, std::optional<int64_t> end,
                         std::optional<int64_t> middle, std::string_view prefix,
                         std::string_view sample_id) {
    if (start && end && *end < *start)
        throw SchemaError(where(sample_id, field(prefix, "time_end")) +
                          model::format_iso_utc(*end) + " is before time_start " +
                          model::format_iso_utc(*start));
    if (middle && ((start && *middle < *start) || (end && *middle > *end)))
        throw SchemaError(where(sample_id, field(prefix, "time_middle")) +
                          model::format_iso_utc(*middle) + " is outside [time_start, time_end]");
    if (!middle && start && end) middle = floor_mid(*start, *end);
    return {stamp(start), stamp(end), stamp(middle)};
}

}  // namespace taco::ext::detail
