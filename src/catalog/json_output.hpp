// One JSON document written as a new file: staged beside the target and renamed, so a failure
// leaves nothing and an existing file is replaced only when asked (DESIGN.md §5).
#pragma once

#include <filesystem>

#include <nlohmann/json.hpp>

namespace taco::catalog {

using Json = nlohmann::ordered_json;

/// IoError when `target` exists and !overwrite, or when it is a directory.
void write_json_file(const std::filesystem::path& target, const Json& doc, bool overwrite);

}  // namespace taco::catalog
