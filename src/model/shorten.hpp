// Values from untrusted files (ids, JSON tokens, numbers) are echoed in error messages; this
// keeps each one short enough to read, whatever its size (a 100,000-character id, a 100 KB
// number), and says how long it really was.
#pragma once

#include <string>
#include <string_view>

namespace taco {

/// Longest value messages quote whole.
inline constexpr size_t kShownValueChars = 120;

/// `text` itself when at most `max` bytes; otherwise its first `max` bytes (not cutting a UTF-8
/// sequence) followed by "... (N bytes)".
std::string shorten(std::string_view text, size_t max = kShownValueChars);

}  // namespace taco
