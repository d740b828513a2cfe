// What `create --overwrite` may replace: only an existing TACO dataset (a ZIP whose first entry is
// TACO_HEADER, or a directory with COLLECTION.json and METADATA/), never a device, FIFO, symlink
// or unrelated directory, and never a path that holds or is one of the inputs (hardening item 1).
#pragma once

#include <filesystem>
#include <vector>

namespace taco::format {

/// Throws IoError naming `target` and what it is unless it does not exist, or it is a TACO dataset
/// that contains none of `inputs` (absolute paths of the files the new dataset is made from).
void check_replaceable(const std::filesystem::path& target,
                       const std::vector<std::filesystem::path>& inputs);

}  // namespace taco::format
