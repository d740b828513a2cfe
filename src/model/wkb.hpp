// Minimal WKB reading: points (for centroids) and bounding boxes of any geometry (for bbox
// filters). Handles both byte orders, ISO Z/M/ZM type codes and EWKB flags/SRID.
#pragma once

#include <optional>
#include <string_view>

namespace taco::model {

struct Point2 {
    double x, y;
};
struct Box2 {
    double min_x, min_y, max_x, max_y;
};

/// The (x, y) of a WKB Point; nullopt for anything else or malformed bytes.
std::optional<Point2> wkb_point(std::string_view wkb);
/// The bounding box of any WKB geometry (point, line, polygon, multi*, collection); nullopt when
/// malformed or empty.
std::optional<Box2> wkb_bounds(std::string_view wkb);

}  // namespace taco::model
