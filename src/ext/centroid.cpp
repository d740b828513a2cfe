// Centroids and lon/lat bounds in EPSG:4326 for the STAC/ISTAC extensions, with PROJ through
// GDAL's OSR and GEOS through OGR.
#include <cpl_error.h>
#include <ogr_geometry.h>
#include <ogr_spatialref.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>

#include "ext/crs.hpp"
#include "ext/vertex_visitor.hpp"
#include "taco/errors.hpp"
#include "taco/extensions.hpp"

namespace taco::ext {
namespace {

using detail::where;

struct GeometryDeleter {
    void operator()(OGRGeometry* g) const { OGRGeometryFactory::destroyGeometry(g); }
};
using GeometryPtr = std::unique_ptr<OGRGeometry, GeometryDeleter>;

// Little-endian 2D WKB point: what shapely.wkb.dumps(Point(x, y)) writes, byte for byte.
std::string wkb_point(double x, double y) {
    std::string out(21, '\0');
    out[0] = 1;
    const uint32_t type = 1;
    std::memcpy(&out[1], &type, 4);
    std::memcpy(&out[5], &x, 8);
    std::memcpy(&out[13], &y, 8);
    return out;
}

detail::SrsPtr crs_or_throw(const std::string& crs, std::string_view sample_id,
                            std::string_view field) {
    auto srs = detail::parse_crs(crs);
    if (!srs)
        throw SchemaError(where(sample_id, field) + "'" + crs +
                          "' is not a CRS GDAL/PROJ knows (expected e.g. 'EPSG:32633', WKT2 or a "
                          "PROJ string)");
    return srs;
}

// (x, y) in `srs` carried to (lon, lat) in [-180, 180] x [-90, 90], or a SchemaError.
std::pair<double, double> to_lonlat_or_throw(const OGRSpatialReference& srs, double x, double y,
                                             std::string_view sample_id, std::string_view field) {
    auto ct = detail::to_lonlat(srs);
    double lon = x, lat = y;
    CPLPushErrorHandler(CPLQuietErrorHandler);
    const bool ok = ct && ct->Transform(1, &lon, &lat);
    CPLPopErrorHandler();
    if (!ok || !std::isfinite(lon) || !std::isfinite(lat))
        throw SchemaError(where(sample_id, field) + "the centroid (" + std::to_string(x) + ", " +
                          std::to_string(y) + ") cannot be carried to EPSG:4326");
    lon = detail::wrap_longitude(lon);
    if (lat < -90.0 || lat > 90.0)
        throw SchemaError(where(sample_id, field) + "the centroid's latitude " +
                          std::to_string(lat) + " is outside [-90, 90]");
    return {lon, lat};
}

GeometryPtr parse_wkb(std::string_view wkb, std::string_view sample_id, std::string_view field) {
    OGRGeometry* raw = nullptr;
    size_t consumed = 0;
    CPLPushErrorHandler(CPLQuietErrorHandler);
    const OGRErr err = OGRGeometryFactory::createFromWkb(wkb.data(), nullptr, &raw, wkb.size(),
                                                         wkbVariantIso, consumed);
    CPLPopErrorHandler();
    GeometryPtr geom(raw);
    if (err != OGRERR_NONE || !geom)
        throw SchemaError(where(sample_id, field) + "expected a WKB geometry, got " +
                          std::to_string(wkb.size()) + " bytes that are not WKB");
    if (consumed != wkb.size())
        throw SchemaError(where(sample_id, field) + "expected a WKB geometry, got " +
                          std::to_string(wkb.size() - consumed) +
                          " bytes of trailing data after it");
    if (geom->IsEmpty()) throw SchemaError(where(sample_id, field) + "the geometry is empty");
    return geom;
}

// In a geographic CRS, a geometry whose longitudes span more than half the globe is read as
// one crossing the antimeridian: its western longitudes move east by 360° so that it becomes
// one piece (170..190 instead of 170..180 + -180..-170). Returns whether it moved anything.
bool unwrap_antimeridian(OGRGeometry& geom) {
    OGREnvelope env;
    geom.getEnvelope(&env);
    if (env.MaxX - env.MinX <= 180.0) return false;
    detail::visit_vertices(geom, [](double& x, double&) {
        if (x < 0) x += 360.0;
    });
    return true;
}

}  // namespace

std::string raster_centroid(const std::string& crs, const std::vector<double>& gt, int64_t rows,
                            int64_t cols, std::string_view sample_id) {
    auto srs = crs_or_throw(crs, sample_id, "stac:crs");
    if (gt.size() != 6 ||
        !std::all_of(gt.begin(), gt.end(), [](double v) { return std::isfinite(v); }))
        throw SchemaError(where(sample_id, "stac:geotransform") +
                          "expected 6 finite numbers (GDAL's geotransform)");
    // The grid's centre through the full affine transform (rotation terms included; the
    // reference drops them, which only matters for rotated grids).
    const double c = static_cast<double>(cols) / 2.0, r = static_cast<double>(rows) / 2.0;
    const double x = gt[0] + c * gt[1] + r * gt[2];
    const double y = gt[3] + c * gt[4] + r * gt[5];
    auto [lon, lat] = to_lonlat_or_throw(*srs, x, y, sample_id, "stac:centroid");
    return wkb_point(lon, lat);
}

std::string geometry_centroid(const std::string& crs, std::string_view wkb,
                              std::string_view sample_id) {
    auto geom = parse_wkb(wkb, sample_id, "istac:geometry");
    auto srs = crs_or_throw(crs, sample_id, "istac:crs");
    if (srs->IsGeographic()) unwrap_antimeridian(*geom);
    OGRPoint centre;
    CPLPushErrorHandler(CPLQuietErrorHandler);
    const OGRErr err = geom->Centroid(&centre);
    CPLPopErrorHandler();
    if (err != OGRERR_NONE || centre.IsEmpty())
        throw SchemaError(where(sample_id, "istac:geometry") +
                          "GEOS could not compute the geometry's centroid");
    auto [lon, lat] =
        to_lonlat_or_throw(*srs, centre.getX(), centre.getY(), sample_id, "istac:centroid");
    return wkb_point(lon, lat);
}

std::optional<LonLatBounds> geometry_bounds_4326(const std::string& crs, std::string_view wkb) {
    GeometryPtr geom;
    detail::SrsPtr srs;
    try {
        geom = parse_wkb(wkb, "", "istac:geometry");
        srs = crs_or_throw(crs, "", "istac:crs");
    } catch (const SchemaError&) {
        return std::nullopt;
    }
    if (!srs->IsGeographic()) {
        // Straight edges in a projected CRS bend in lon/lat: densify before carrying them over.
        OGREnvelope env;
        geom->getEnvelope(&env);
        const double diag = std::hypot(env.MaxX - env.MinX, env.MaxY - env.MinY);
        if (diag > 0) geom->segmentize(diag / 64.0);
        auto ct = detail::to_lonlat(*srs);
        CPLPushErrorHandler(CPLQuietErrorHandler);
        const bool ok = ct && geom->transform(ct.get()) == OGRERR_NONE;
        CPLPopErrorHandler();
        if (!ok) return std::nullopt;
    }
    unwrap_antimeridian(*geom);
    OGREnvelope env;
    geom->getEnvelope(&env);
    if (!std::isfinite(env.MinX) || !std::isfinite(env.MaxX) || !std::isfinite(env.MinY) ||
        !std::isfinite(env.MaxY))
        return std::nullopt;
    LonLatBounds b{detail::wrap_longitude(env.MinX), std::max(env.MinY, -90.0),
                   detail::wrap_longitude(env.MaxX), std::min(env.MaxY, 90.0)};
    // Wider than the globe (a polar cap written 0..360): the whole longitude range.
    if (env.MaxX - env.MinX >= 360.0) b.west = -180.0, b.east = 180.0;
    return b;
}

}  // namespace taco::ext
