#include "ext/vertex_visitor.hpp"

#include <ogr_api.h>
#include <ogr_geometry.h>

namespace taco::ext::detail {
namespace {

// Through OGR's C API, which names no GDAL class: the `taco` program loads GDAL on first use
// (src/gdal_lazy/) and can forward functions only, not a class's vtable or typeinfo.
void visit_handle(OGRGeometryH geometry, const std::function<void(double&, double&)>& visit) {
    // Containers: a polygon's rings, a collection's members, a compound curve's parts.
    const int parts = OGR_G_GetGeometryCount(geometry);
    for (int i = 0; i < parts; ++i) visit_handle(OGR_G_GetGeometryRef(geometry, i), visit);
    if (parts > 0) return;
    // A point or a simple curve (line string, ring, circular string): its vertices, their Z and M
    // kept as they are. An empty point has no vertex, though OGR counts one for every point.
    if (OGR_G_IsEmpty(geometry)) return;
    const bool has_z = OGR_G_Is3D(geometry) != 0, has_m = OGR_G_IsMeasured(geometry) != 0;
    const int points = OGR_G_GetPointCount(geometry);
    for (int i = 0; i < points; ++i) {
        double x = 0, y = 0, z = 0, m = 0;
        OGR_G_GetPointZM(geometry, i, &x, &y, &z, &m);
        visit(x, y);
        if (has_z && has_m)
            OGR_G_SetPointZM(geometry, i, x, y, z, m);
        else if (has_z)
            OGR_G_SetPoint(geometry, i, x, y, z);
        else if (has_m)
            OGR_G_SetPointM(geometry, i, x, y, m);
        else
            OGR_G_SetPoint_2D(geometry, i, x, y);
    }
}

}  // namespace

void visit_vertices(OGRGeometry& geometry, const std::function<void(double& x, double& y)>& visit) {
    visit_handle(OGRGeometry::ToHandle(&geometry), visit);
}

}  // namespace taco::ext::detail
