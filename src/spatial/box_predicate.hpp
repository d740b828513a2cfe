// The exact test behind filter_bbox: does a WKB geometry intersect a box? The box is given in
// one CRS and the geometry lives in its own; the box is carried into the geometry's CRS (edges
// densified, so it bends as the projection bends it) and compared there with GEOS through OGR.
// A projected CRS is only trusted near its area of use: a geometry outside it (a Norwegian tile
// at 30°E in UTM 33N, a footprint in a CRS with no known area) is carried into the box's CRS
// instead and compared there. Nothing here needs DuckDB's spatial extension.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/wkb.hpp"

class OGRCoordinateTransformation;
class OGRGeometry;

namespace taco::spatial {

struct BBox {
    double minx, miny, maxx, maxy;
};

/// Whether `crs` names a CRS GDAL/PROJ knows (any form OSR accepts: "EPSG:4326", WKT, PROJJSON,
/// "OGC:CRS84"); `geographic` is set to whether it is a geographic (lon/lat) CRS.
bool known_crs(const std::string& crs, bool* geographic = nullptr);

/// A box in `box_crs` ready to be tested against geometries in `geom_crs`. Built once per
/// (box, CRS pair) and used by one thread at a time (GEOS prepared geometries are not shared).
class BoxPredicate {
  public:
    /// QueryError when a CRS is unknown. In a geographic box CRS, minx > maxx is a box crossing
    /// the antimeridian (it is split at ±180). In a geographic geometry CRS the box is also
    /// tested shifted by ±360°, so geometries written with longitudes past ±180 match too.
    BoxPredicate(const BBox& box, const std::string& box_crs, const std::string& geom_crs);
    ~BoxPredicate();
    BoxPredicate(const BoxPredicate&) = delete;
    BoxPredicate& operator=(const BoxPredicate&) = delete;

    /// Whether the geometry and the box share at least one point (boundaries count); an empty
    /// geometry matches nothing. nullopt: the bytes are not WKB.
    std::optional<bool> intersects(std::string_view wkb) const;

  private:
    struct Part;
    struct TrustedArea;
    struct TransformDeleter {
        void operator()(OGRCoordinateTransformation* t) const;
    };
    // The geometry in the box's CRS against the box itself; nullopt when it cannot be carried.
    std::optional<bool> intersects_in_box_crs(const OGRGeometry& geometry) const;

    std::vector<std::unique_ptr<Part>> parts_;
    // Set when the box was carried into a projected CRS: where (in that CRS) the carried box is
    // exact, null when the CRS has no known area of use (then nowhere is).
    std::shared_ptr<const TrustedArea> trusted_;
    std::unique_ptr<OGRCoordinateTransformation, TransformDeleter> to_box_crs_;
    std::vector<std::unique_ptr<Part>> box_in_own_crs_;  // the box's pieces, as rectangles
    bool check_outside_trusted_ = false;
};

}  // namespace taco::spatial
