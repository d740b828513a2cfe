// Multi-part create (tacotoolbox's split_size / group_by): level-0 samples are shared out into
// ZIP parts, each a complete dataset, written in parallel under staging names; the `.tacocat/`
// index is written over the staged parts; then everything is renamed into place.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "taco/writer.hpp"

namespace taco::collection {

/// One ZIP part of a multi-part create: its file name (beside the output) and the positions of
/// its samples in the root tortilla (padding samples never go to a part).
struct PartPlan {
    std::string name;
    std::vector<size_t> samples;
};

/// How create_parts shares the level-0 samples out (split_size / group_by, see writer.hpp),
/// without writing anything: what a distributed create (python/tacocore/dask.py) hands to its
/// workers, one part per task. SchemaError as create_parts (not a ZIP output, bad group_by).
std::vector<PartPlan> plan_parts(const Taco& taco, const std::filesystem::path& output,
                                 const CreateOptions& options);

/// taco::create with options.split_size or options.group_by set (see writer.hpp).
CreateResult create_parts(const Taco& taco, const std::filesystem::path& output,
                          const CreateOptions& options);

}  // namespace taco::collection
