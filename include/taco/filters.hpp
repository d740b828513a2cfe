// Choosing samples by place and time (spec §8.2, USER-GUIDE "Space, time and statistics"):
// the arguments of Dataset::filter_bbox / Dataset::filter_datetime, usable on their own (the CLI
// and `taco export` parse user text with them).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace taco {

/// A closed interval of instants in microseconds since 1970-01-01T00:00:00Z; a missing side is
/// open (no limit).
struct TimeRange {
    std::optional<int64_t> start_us;
    std::optional<int64_t> end_us;
};

/// Parses a time range as STAC writes them:
///  - "START/END", "../END", "START/.." (an empty side is open too);
///  - a single instant or day: "2023-01-01T10:00:00Z", "2023-01-01".
/// Each side is ISO 8601: `YYYY-MM-DD`, optionally `THH:MM[:SS[.ffffff]]` (a space works as
/// `T`), optionally `Z` or an offset `±HH[:MM]`; naive means UTC; digits past microseconds are
/// refused. A side given as a day only covers the whole day: as a start it means 00:00:00, as an
/// end 23:59:59.999999 (so "2023-01-01/2023-01-31" includes the 31st, and "2023-01-01" alone is
/// that day). QueryError naming the text when malformed, a date does not exist, or start > end.
TimeRange parse_time_range(const std::string& text);

/// Microseconds since the epoch of one ISO 8601 instant (the grammar above); `end_of_day` says
/// what a day-only value means. QueryError when malformed.
int64_t parse_instant_us(const std::string& text, bool end_of_day = false);

/// The ISO 8601 text of `us` (UTC, "2023-01-01T00:00:00.000001Z"; no fraction when it is zero).
std::string format_instant_us(int64_t us);

}  // namespace taco
