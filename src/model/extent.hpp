// Extent auto-calculation from STAC / ISTAC sample metadata (spec §7.1.1, FORMAT.md §5.3).
#pragma once

#include <array>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "taco/collection.hpp"
#include "taco/value.hpp"

namespace taco::model {

/// Which columns of one level give the dataset's extent, by the reference's rule: the level needs
/// a STAC (else ISTAC) place and time_start; an ISTAC level may give its place by geometry alone.
/// Shared by create (compute_extent, over the samples) and export (over the kept rows' tables), so
/// that the two cannot drift apart.
struct ExtentColumns {
    std::string prefix;         // "stac:" or "istac:"; empty: this level gives no extent
    bool has_centroid = false;  // <prefix>centroid (BINARY, WKB point)
    bool by_geometry = false;   // istac:geometry (BINARY) with istac:crs (STRING): footprints count
    /// Of <prefix>time_start, time_middle, time_end (TIMESTAMP), those present, in that order.
    std::vector<std::string> time_columns;
};
ExtentColumns extent_columns(const std::vector<ColumnType>& schema);

/// The place part of an extent, one row at a time: each row counts by its footprint's EPSG:4326
/// bounds when it has a readable one, else by its centroid; the box is the smallest longitude arc
/// covering them (longitude_arc) and the latitude min/max.
class PlaceBounds {
  public:
    /// One row. `crs` and `geometry` (WKB) are its footprint, given only when the level counts
    /// footprints (ExtentColumns::by_geometry) and the row has both; a footprint that cannot be
    /// read, or none, falls back to `centroid` (a WKB point). A row with neither adds nothing, as
    /// does a centroid that is not a finite point.
    void add(std::optional<std::string_view> crs, std::optional<std::string_view> geometry,
             std::optional<std::string_view> centroid);
    /// A box already in EPSG:4326, [west, south, east, north] with west > east when it crosses
    /// the antimeridian (a part's extent.spatial): merged by the same arc rule as the rows, so a
    /// box across ±180 is never read as the span between its edges.
    void add_box(const std::array<double, 4>& box);
    /// [west, south, east, north] (west > east across the antimeridian); nullopt when no row had a
    /// place.
    std::optional<std::array<double, 4>> bounds() const;

  private:
    std::vector<std::pair<double, double>> arcs_;  // (west, east) per row
    double south_ = std::numeric_limits<double>::infinity(), north_ = -south_;
};

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

}  // namespace taco::model
