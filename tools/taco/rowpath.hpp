// ROWPATH arguments of `taco ls` and `taco cat`: sample ids joined by '/', followed from level 0
// (e.g. tile_00/sensor_A/band_R).
#pragma once

#include <optional>
#include <string>

#include "taco/dataset.hpp"

namespace taco::cli {

struct RowLocation {
    DataFrame frame;  // the rows that hold the sample
    size_t row = 0;   // its position in `frame`
};

/// Follows `rowpath` (must name at least one id). NavigationError naming the first id that does
/// not exist, or the FILE that was asked for children.
RowLocation follow_rowpath(const Dataset& dataset, const std::string& rowpath);

}  // namespace taco::cli
