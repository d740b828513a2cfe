// ISO-8601 <-> microseconds since the epoch (UTC), the way the reference prints them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace taco::model {

/// Microseconds since the epoch of a UTC civil date and time (proleptic Gregorian calendar).
int64_t micros_from_civil(int64_t year, unsigned month, unsigned day, int64_t hour, int64_t minute,
                          int64_t second, int64_t microsecond);

/// "2023-01-01T00:00:00Z"; microseconds appear (6 digits) only when non-zero, like Python's
/// datetime.isoformat() with "+00:00" replaced by "Z". Years outside 0000-9999 are ISO 8601's
/// expanded form: a sign for years before 0 (astronomical: 1 BC is 0000, 2 BC -0001) and as many
/// digits as they need ("-0001-12-31T…", "10000-01-01T…").
std::string format_iso_utc(int64_t micros_since_epoch);
/// The day `days_since_epoch` (1970-01-01 is 0) as "2024-02-29", years as format_iso_utc prints
/// them; every DuckDB DATE (about ±5.8 million years) fits.
std::string format_iso_date(int64_t days_since_epoch);

/// Parses "YYYY-MM-DD", "YYYY-MM-DDTHH:MM[:SS[.ffffff]]" with an optional "Z" or "+HH:MM"/"-HH:MM"
/// offset (naive means UTC). Returns nullopt when the text is not such a date.
std::optional<int64_t> parse_iso_utc(const std::string& text);

}  // namespace taco::model
