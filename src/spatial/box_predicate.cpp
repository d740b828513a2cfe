#include "spatial/box_predicate.hpp"

#include <cpl_error.h>
#include <ogr_api.h>
#include <ogr_geometry.h>
#include <ogr_spatialref.h>

#include <algorithm>
#include <cmath>

#include "ext/crs.hpp"
#include "taco/errors.hpp"

namespace taco::spatial {
namespace {

// Points per box edge when the box is carried into another CRS: enough that a UTM or polar
// projection's curvature stays well under a pixel of a typical EO tile's footprint.
constexpr int kEdgePoints = 64;

struct GeometryDeleter {
    void operator()(OGRGeometry* g) const { OGRGeometryFactory::destroyGeometry(g); }
};
using GeometryPtr = std::unique_ptr<OGRGeometry, GeometryDeleter>;

bool overlaps(const model::Box2& a, const model::Box2& b) {
    return a.min_x <= b.max_x && b.min_x <= a.max_x && a.min_y <= b.max_y && b.min_y <= a.max_y;
}

bool inside(const model::Box2& a, const model::Box2& outer) {
    return a.min_x >= outer.min_x && a.max_x <= outer.max_x && a.min_y >= outer.min_y &&
           a.max_y <= outer.max_y;
}

}  // namespace

bool known_crs(const std::string& crs, bool* geographic) {
    // The extensions' parser: one place decides what a CRS string may name (no network, no
    // files) and its axis order (longitude first, as WKB and the user's box are written).
    const auto srs = ext::detail::parse_crs(crs);
    if (!srs) return false;
    if (geographic) *geographic = srs->IsGeographic();
    return true;
}

// One polygon the box became in the geometry's CRS (several when split or shifted).
struct BoxPredicate::Part {
    model::Box2 envelope{};
    bool rectangle = false;  // the polygon is exactly its envelope (no reprojection)
    GeometryPtr polygon;
    OGRPreparedGeometryH prepared = nullptr;
    ~Part() {
        if (prepared) OGRDestroyPreparedGeometry(prepared);
    }
};

BoxPredicate::BoxPredicate(const BBox& box, const std::string& box_crs,
                           const std::string& geom_crs) {
    const auto from_srs = ext::detail::parse_crs(box_crs);
    if (!from_srs) throw QueryError("'" + box_crs + "' is not a CRS GDAL knows");
    const auto to_srs = ext::detail::parse_crs(geom_crs);
    if (!to_srs) throw QueryError("'" + geom_crs + "' is not a CRS GDAL knows");
    const OGRSpatialReference& from = *from_srs;
    const OGRSpatialReference& to = *to_srs;

    // The box in its own CRS, split at the antimeridian when it crosses it.
    std::vector<BBox> pieces;
    if (from.IsGeographic() && box.minx > box.maxx) {
        pieces.push_back({box.minx, box.miny, 180.0, box.maxy});
        pieces.push_back({-180.0, box.miny, box.maxx, box.maxy});
    } else {
        pieces.push_back(box);
    }
    const bool same = from.IsSame(&to);
    std::unique_ptr<OGRCoordinateTransformation> transform;
    if (!same) {
        transform.reset(OGRCreateCoordinateTransformation(&from, &to));
        if (!transform) {
            throw QueryError("no transformation from '" + box_crs + "' to '" + geom_crs + "'");
        }
    }
    // A projected CRS is meaningful only near its area of use: far outside it (a UTM zone seen
    // from the other side of the globe) PROJ's numbers fold over and a carried box would cover
    // the wrong places. So a geographic box is first cut to the target's area of use, widened by
    // kAreaMargin degrees for geometries that run a little past their zone.
    if (!same && from.IsGeographic() && !to.IsGeographic()) {
        double w = 0, s = 0, e = 0, n = 0;
        const char* area_name = nullptr;
        if (to.GetAreaOfUse(&w, &s, &e, &n, &area_name) && w <= e) {
            constexpr double kAreaMargin = 3.0;
            std::vector<BBox> cut;
            for (const BBox& b : pieces) {
                const BBox c{std::max(b.minx, w - kAreaMargin), std::max(b.miny, s - kAreaMargin),
                             std::min(b.maxx, e + kAreaMargin), std::min(b.maxy, n + kAreaMargin)};
                if (c.minx <= c.maxx && c.miny <= c.maxy) cut.push_back(c);
            }
            pieces = std::move(cut);
        }
    }
    const std::vector<double> shifts =
        to.IsGeographic() ? std::vector<double>{0.0, -360.0, 360.0} : std::vector<double>{0.0};

    for (const BBox& b : pieces) {
        std::vector<double> xs, ys;
        if (same) {
            xs = {b.minx, b.maxx, b.maxx, b.minx, b.minx};
            ys = {b.miny, b.miny, b.maxy, b.maxy, b.miny};
        } else {
            // Walk the boundary counter-clockwise, kEdgePoints per edge, then project.
            const double cx[4] = {b.minx, b.maxx, b.maxx, b.minx};
            const double cy[4] = {b.miny, b.miny, b.maxy, b.maxy};
            for (int e = 0; e < 4; ++e) {
                for (int k = 0; k < kEdgePoints; ++k) {
                    const double t = double(k) / kEdgePoints;
                    xs.push_back(cx[e] + t * (cx[(e + 1) % 4] - cx[e]));
                    ys.push_back(cy[e] + t * (cy[(e + 1) % 4] - cy[e]));
                }
            }
            std::vector<int> ok(xs.size(), 0);
            // Corners outside the target projection's domain fail; they are dropped below, so
            // PROJ's complaint is not the user's business.
            CPLPushErrorHandler(CPLQuietErrorHandler);
            transform->Transform(static_cast<int>(xs.size()), xs.data(), ys.data(), nullptr,
                                 ok.data());
            CPLPopErrorHandler();
            // Points PROJ cannot carry (outside the projection's domain) are left out.
            size_t n = 0;
            for (size_t i = 0; i < xs.size(); ++i) {
                if (!ok[i] || !std::isfinite(xs[i]) || !std::isfinite(ys[i])) continue;
                xs[n] = xs[i];
                ys[n] = ys[i];
                ++n;
            }
            xs.resize(n);
            ys.resize(n);
            if (n < 3) continue;
            // Into a geographic CRS the ring may jump across ±180: unwrap it into one piece
            // (the ±360 copies below then cover both sides).
            if (to.IsGeographic()) {
                for (size_t i = 1; i < n; ++i) {
                    while (xs[i] - xs[i - 1] > 180.0) xs[i] -= 360.0;
                    while (xs[i] - xs[i - 1] < -180.0) xs[i] += 360.0;
                }
            }
            xs.push_back(xs.front());
            ys.push_back(ys.front());
        }
        for (double shift : shifts) {
            auto ring = std::make_unique<OGRLinearRing>();
            for (size_t i = 0; i < xs.size(); ++i) ring->addPoint(xs[i] + shift, ys[i]);
            auto polygon = std::make_unique<OGRPolygon>();
            polygon->addRingDirectly(ring.release());
            GeometryPtr geometry(polygon.release());
            if (!same && !geometry->IsValid()) {
                GeometryPtr valid(geometry->MakeValid());
                if (!valid) continue;
                geometry = std::move(valid);
            }
            OGREnvelope env;
            geometry->getEnvelope(&env);
            auto part = std::make_unique<Part>();
            part->envelope = {env.MinX, env.MinY, env.MaxX, env.MaxY};
            part->rectangle = same;
            part->prepared = OGRCreatePreparedGeometry(OGRGeometry::ToHandle(geometry.get()));
            part->polygon = std::move(geometry);
            parts_.push_back(std::move(part));
        }
    }
}

BoxPredicate::~BoxPredicate() = default;

std::optional<bool> BoxPredicate::intersects(std::string_view wkb) const {
    const std::optional<model::Box2> bounds = model::wkb_bounds(wkb);
    GeometryPtr geometry;
    auto parse = [&]() -> bool {
        OGRGeometry* g = nullptr;
        if (OGRGeometryFactory::createFromWkb(wkb.data(), nullptr, &g, wkb.size()) != OGRERR_NONE) {
            return false;
        }
        geometry.reset(g);
        return true;
    };
    if (!bounds) {
        // Malformed, or a valid but empty geometry (which intersects nothing).
        if (!parse()) return std::nullopt;
        return false;
    }
    for (const auto& part : parts_) {
        if (!overlaps(*bounds, part->envelope)) continue;
        // Inside an unprojected box (every point does that) needs no geometry at all.
        if (part->rectangle && inside(*bounds, part->envelope)) return true;
        if (!geometry && !parse()) return std::nullopt;
        const bool hit = part->prepared
                             ? OGRPreparedGeometryIntersects(
                                   part->prepared, OGRGeometry::ToHandle(geometry.get())) != 0
                             : part->polygon->Intersects(geometry.get());
        if (hit) return true;
    }
    return false;
}

}  // namespace taco::spatial
