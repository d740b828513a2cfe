// Paths taken from a dataset's own metadata (FOLDER ids, internal:relative_path, ZIP entry names)
// must name something inside the dataset. These checks run before anything is opened, so hostile
// metadata ('../../etc/passwd', an absolute path, a symlink out of DATA/) reads nothing outside.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace taco::io {

/// Empty if `rel` is a relative path of '/'-separated components, none of them empty, '.' or
/// '..', and holding no '\\' or NUL (a trailing '/' is allowed); otherwise why it is not, for a
/// message.
std::string unsafe_relative_path(std::string_view rel);

/// True if `path`, with every symlink resolved, lies inside `root` (itself resolved, no trailing
/// '/'; /proc/self/fd/N of an anchored directory is resolved too). A path that does not exist yet
/// counts by its lexical form.
bool resolves_inside(const std::filesystem::path& path, const std::string& root);

}  // namespace taco::io
