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
///    ISTAC levels with istac:geometry + istac:crs use each footprint's EPSG:4326 bounds instead of
///    its centroid;
///  - temporal: the smallest range holding every sample's [time_start, time_end] (middle or the
///    other end standing in for a null end).
/// Without such a level: the global box and no temporal range.
Extent compute_extent(const Tortilla& root);

/// The smallest longitude range covering these intervals ((west, east) pairs, west > east for one
/// crossing the antimeridian; not empty): west > east when the result crosses it. Chosen only
/// when narrower than half the globe, else the plain [min, max].
std::pair<double, double> longitude_arc(const std::vector<std::pair<double, double>>& arcs);

/// The longitude range compute_extent gives for these centroid longitudes (not empty): west >
/// east when the points sit around the antimeridian. Shared with export, which recomputes the
/// extent of the kept rows from the level tables.
std::pair<double, double> longitude_interval(std::vector<double> lons);

}  // namespace taco::model
