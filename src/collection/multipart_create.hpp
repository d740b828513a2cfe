// Multi-part create (tacotoolbox's split_size / group_by): level-0 samples are shared out into
// ZIP parts, each a complete dataset, written in parallel under staging names; the `.tacocat/`
// index is written over the staged parts; then everything is renamed into place.
#pragma once

#include <filesystem>

#include "taco/writer.hpp"

namespace taco::collection {

/// taco::create with options.split_size or options.group_by set (see writer.hpp).
CreateResult create_parts(const Taco& taco, const std::filesystem::path& output,
                          const CreateOptions& options);

}  // namespace taco::collection
