// How a path (or a message quoting one) is shown to people and JSON readers: always valid UTF-8.
// A byte that is not part of a well-formed UTF-8 sequence is written `\xNN` (as Python's
// backslashreplace does), and /proc/self/fd/N of a live or recent PathAnchor
// (path_anchor.hpp) is written as the path it stands for. The CLI's error reporting and the
// Python exception translation pass every message through display_text(), so no failure can
// print invalid UTF-8 or a descriptor path the user never typed.
#pragma once

#include <string>
#include <string_view>

namespace taco::paths {

/// `bytes` with every byte outside a well-formed UTF-8 sequence replaced by `\xNN` (a backslash
/// already in the text is kept as is). `prefix` replaces the `\x`: inside a JSON string, where
/// `\x` is no escape, "\\\\x" writes a backslash the JSON reader keeps.
std::string escape_invalid_utf8(std::string_view bytes, std::string_view prefix = "\\x");

/// `text` with anchored /proc/self/fd/N prefixes replaced by the path they stand for (raw bytes,
/// not escaped yet): for code that names the other descriptor paths (memfds) itself afterwards.
std::string name_anchored_paths(std::string_view text);

/// name_anchored_paths(), then escape_invalid_utf8(): always valid UTF-8.
std::string display_text(std::string_view text);

/// Records what /proc/self/fd/`fd` stands for (PathAnchor does this), until the number is reused
/// by another anchor: a message built while unwinding out of a failed open still names the path.
void remember_anchor(int fd, std::string original_bytes);

}  // namespace taco::paths
