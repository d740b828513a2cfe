// What a dataset's path says by its text alone: a `.zip` / `.tacozip` name is a ZIP, and a
// trailing `/` does not count (`x.tacozip/` is x.tacozip, as Python's pathlib and tacoreader read
// it). Readers (format/dataset_detect) and writers (format/output_target) share these rules.
#pragma once

#include <filesystem>
#include <string>

namespace taco::paths {

/// `path` without trailing slashes ("/" stays "/").
std::string without_trailing_slashes(std::string path);

/// Whether the last component ends in `.zip` or `.tacozip`, in any case.
bool has_zip_suffix(const std::filesystem::path& path);

}  // namespace taco::paths
