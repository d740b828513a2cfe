// What `create --overwrite` may replace: only an existing TACO dataset (a ZIP whose first entry is
// TACO_HEADER, or a directory with COLLECTION.json and METADATA/), never a device, FIFO, symlink
// or unrelated directory, and never a path that holds or is one of the inputs (hardening item 1).
#pragma once

#include <filesystem>
#include <string_view>
#include <vector>

namespace taco::format {

/// Throws IoError naming `target` and what it is unless it does not exist, or it is a TACO dataset
/// that contains none of `inputs` (absolute paths of the files the new dataset is made from).
void check_replaceable(const std::filesystem::path& target,
                       const std::vector<std::filesystem::path>& inputs);

/// check_replaceable for a writer of one ZIP file (tacocore.tacozip's create): only an existing
/// TACO ZIP may be replaced, never a directory; `who` names the writer in the refusal.
void check_replaceable_zip(const std::filesystem::path& target,
                           const std::vector<std::filesystem::path>& inputs, std::string_view who);

/// What a writer of one document about a dataset (Croissant, DataCite, a card) may replace: a
/// regular file that is not a TACO ZIP, not one of `sources` (the dataset's files), and not
/// inside a FOLDER dataset or a `.tacocat` index. IoError naming `target` and `who` otherwise.
void check_replaceable_document(const std::filesystem::path& target,
                                const std::vector<std::filesystem::path>& sources,
                                std::string_view who);

}  // namespace taco::format
