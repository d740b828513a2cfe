// Walks every vertex of an OGR geometry with a callback, through OGRGeometry::transform — the one
// traversal OGR offers for all geometry types (points, lines, polygons, multi*, collections,
// curves). Used to shift longitudes across the antimeridian and to gather bounds.
#pragma once

#include <functional>

class OGRGeometry;

namespace taco::ext::detail {

/// Calls `visit(x, y)` for every vertex of `geometry`; the callback may change them in place.
/// False when OGR refused the traversal.
bool visit_vertices(OGRGeometry& geometry, const std::function<void(double& x, double& y)>& visit);

}  // namespace taco::ext::detail
