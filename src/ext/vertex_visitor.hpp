// Walks every vertex of an OGR geometry with a callback, for every geometry type (points, lines,
// polygons, multi*, collections, curves). Used to shift longitudes across the antimeridian.
#pragma once

#include <functional>

class OGRGeometry;

namespace taco::ext::detail {

/// Calls `visit(x, y)` for every vertex of `geometry`; the callback may change them in place.
void visit_vertices(OGRGeometry& geometry, const std::function<void(double& x, double& y)>& visit);

}  // namespace taco::ext::detail
