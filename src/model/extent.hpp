// Extent auto-calculation from STAC / ISTAC sample metadata (spec §7.1.1, FORMAT.md §5.3).
#pragma once

#include <utility>
#include <vector>

#include "taco/collection.hpp"

namespace taco::model {

/// Searches levels 0, 1, ... for the first level with (stac:centroid, stac:time_start) or
/// (istac:centroid, istac:time_start) columns (STAC wins) and returns:
///  - spatial: the smallest longitude interval covering every centroid on the circle (so a set of
///    points around the antimeridian gives west > east instead of a world-wide box), and the
///    latitude min/max;
///  - temporal: min/max of the first of time_middle, time_start, time_end holding values.
/// Without such a level: the global box and no temporal range.
Extent compute_extent(const Tortilla& root);

/// The longitude range compute_extent gives for these centroid longitudes (not empty): west >
/// east when the points sit around the antimeridian. Shared with export, which recomputes the
/// extent of the kept rows from the level tables.
std::pair<double, double> longitude_interval(std::vector<double> lons);

}  // namespace taco::model
