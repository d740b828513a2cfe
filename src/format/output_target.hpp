// Where a writer puts a dataset asked for at a path, and in which container: the one rule of
// `create`, `export` and `convert`. A `.zip` / `.tacozip` name is a ZIP unless a format is
// forced; a trailing `/` does not count; a FOLDER asked for under a ZIP name is written without
// the suffix, as tacotoolbox does (every reader takes a directory named `x.tacozip` for a ZIP);
// a FOLDER cannot be named like the parts of a dataset.
#pragma once

#include <filesystem>

#include "taco/writer.hpp"

namespace taco::format {

struct OutputTarget {
    std::filesystem::path path;
    ContainerFormat format = ContainerFormat::Zip;  // never Auto
};

/// IoError for a FOLDER named `.tacocat`, `DATA` or `METADATA` (reserved).
OutputTarget resolve_output(const std::filesystem::path& requested, ContainerFormat format);

}  // namespace taco::format
