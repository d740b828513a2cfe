#include "spatial/box_predicate.hpp"

#include <cpl_error.h>
#include <ogr_api.h>
#include <ogr_geometry.h>
#include <ogr_spatialref.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>

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

// The boundary of `b`, kEdgePoints per edge, counter-clockwise, not closed.
void densified_ring(const BBox& b, std::vector<double>& xs, std::vector<double>& ys) {
    const double cx[4] = {b.minx, b.maxx, b.maxx, b.minx};
    const double cy[4] = {b.miny, b.miny, b.maxy, b.maxy};
    for (int e = 0; e < 4; ++e) {
        for (int k = 0; k < kEdgePoints; ++k) {
            const double t = double(k) / kEdgePoints;
            xs.push_back(cx[e] + t * (cx[(e + 1) % 4] - cx[e]));
            ys.push_back(cy[e] + t * (cy[(e + 1) % 4] - cy[e]));
        }
    }
}

// Carries the points with `transform` and keeps those PROJ could carry (corners outside the
// target projection's domain fail; PROJ's complaint about them is not the user's business).
void carry_points(OGRCoordinateTransformation& transform, std::vector<double>& xs,
                  std::vector<double>& ys) {
    std::vector<int> ok(xs.size(), 0);
    CPLPushErrorHandler(CPLQuietErrorHandler);
    transform.Transform(static_cast<int>(xs.size()), xs.data(), ys.data(), nullptr, ok.data());
    CPLPopErrorHandler();
    size_t n = 0;
    for (size_t i = 0; i < xs.size(); ++i) {
        if (!ok[i] || !std::isfinite(xs[i]) || !std::isfinite(ys[i])) continue;
        xs[n] = xs[i];
        ys[n] = ys[i];
        ++n;
    }
    xs.resize(n);
    ys.resize(n);
}

GeometryPtr closed_polygon(const std::vector<double>& xs, const std::vector<double>& ys,
                           double shift = 0.0) {
    auto ring = std::make_unique<OGRLinearRing>();
    for (size_t i = 0; i < xs.size(); ++i) ring->addPoint(xs[i] + shift, ys[i]);
    ring->closeRings();
    auto polygon = std::make_unique<OGRPolygon>();
    polygon->addRingDirectly(ring.release());
    return GeometryPtr(polygon.release());
}

// GEOS reports why a ring is invalid ("Ring Self-intersection at ...") through GDAL's error
// handler; a box folded by its projection is expected here, and repaired or distrusted.
bool valid_quietly(const OGRGeometry& g) {
    CPLPushErrorHandler(CPLQuietErrorHandler);
    const bool valid = g.IsValid();
    CPLPopErrorHandler();
    return valid;
}

}  // namespace

// Where, in a projected CRS, a box carried into it is exact: its area of use, carried into it
// and rasterised to a grid of cells that lie wholly inside. A geometry whose bounds fall on
// those cells alone is tested against the carried box; any other is carried into the box's CRS.
// A grid, not the polygon: the test runs for each row the carried box misses.
struct BoxPredicate::TrustedArea {
    static constexpr int kCells = 64;
    model::Box2 envelope{};
    double cell_w = 0, cell_h = 0;
    std::vector<uint8_t> inside;  // kCells x kCells, row-major from (min_x, min_y)

    bool contains(const model::Box2& b) const {
        if (!spatial::inside(b, envelope)) return false;
        auto cell = [](double v, double lo, double w) {
            return std::clamp(static_cast<int>((v - lo) / w), 0, kCells - 1);
        };
        const int x0 = cell(b.min_x, envelope.min_x, cell_w);
        const int x1 = cell(b.max_x, envelope.min_x, cell_w);
        const int y0 = cell(b.min_y, envelope.min_y, cell_h);
        const int y1 = cell(b.max_y, envelope.min_y, cell_h);
        for (int y = y0; y <= y1; ++y)
            for (int x = x0; x <= x1; ++x)
                if (!inside[static_cast<size_t>(y) * kCells + x]) return false;
        return true;
    }

    // The area [w, e] x [s, n] (degrees, in `to_projected`'s source CRS); null when it cannot
    // be carried.
    static std::shared_ptr<const TrustedArea> build(OGRCoordinateTransformation& to_projected,
                                                    double w, double s, double e, double n) {
        std::vector<double> xs, ys;
        densified_ring({w, s, e, n}, xs, ys);
        carry_points(to_projected, xs, ys);
        if (xs.size() < 3) return nullptr;
        GeometryPtr area = closed_polygon(xs, ys);
        if (!valid_quietly(*area)) return nullptr;  // folded over itself: trust nothing
        auto out = std::make_shared<TrustedArea>();
        OGREnvelope env;
        area->getEnvelope(&env);
        out->envelope = {env.MinX, env.MinY, env.MaxX, env.MaxY};
        out->cell_w = (env.MaxX - env.MinX) / kCells;
        out->cell_h = (env.MaxY - env.MinY) / kCells;
        if (!(out->cell_w > 0) || !(out->cell_h > 0)) return nullptr;
        out->inside.assign(static_cast<size_t>(kCells) * kCells, 0);
        OGRPreparedGeometryH prepared =
            OGRCreatePreparedGeometry(OGRGeometry::ToHandle(area.get()));
        for (int y = 0; y < kCells; ++y) {
            for (int x = 0; x < kCells; ++x) {
                const double x0 = env.MinX + x * out->cell_w, y0 = env.MinY + y * out->cell_h;
                GeometryPtr cell = closed_polygon({x0, x0 + out->cell_w, x0 + out->cell_w, x0},
                                                  {y0, y0, y0 + out->cell_h, y0 + out->cell_h});
                out->inside[static_cast<size_t>(y) * kCells + x] =
                    prepared ? OGRPreparedGeometryContains(prepared,
                                                           OGRGeometry::ToHandle(cell.get())) != 0
                             : area->Contains(cell.get());
            }
        }
        if (prepared) OGRDestroyPreparedGeometry(prepared);
        return out;
    }

    // One per (box CRS, geometry CRS) for the process: the grid depends on nothing else, and
    // costs tens of milliseconds to build. Read-only once built, so threads share it.
    static std::shared_ptr<const TrustedArea> shared(const std::string& key,
                                                     OGRCoordinateTransformation& to_projected,
                                                     double w, double s, double e, double n) {
        static std::mutex mutex;
        static std::map<std::string, std::shared_ptr<const TrustedArea>> cache;
        std::lock_guard lock(mutex);
        const auto it = cache.find(key);
        if (it != cache.end()) return it->second;
        if (cache.size() >= 64) cache.clear();
        return cache[key] = build(to_projected, w, s, e, n);
    }
};

void BoxPredicate::TransformDeleter::operator()(OGRCoordinateTransformation* t) const {
    OGRCoordinateTransformation::DestroyCT(t);
}

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
    // kAreaMargin degrees for geometries that run a little past their zone, and a geometry
    // outside that area is tested the other way round: carried into the box's CRS
    // (intersects_in_box_crs). A CRS with no known area of use is only tested that way.
    if (!same && from.IsGeographic() && !to.IsGeographic()) {
        to_box_crs_.reset(OGRCreateCoordinateTransformation(&to, &from));
        check_outside_trusted_ = to_box_crs_ != nullptr;
        for (const BBox& b : pieces) {
            auto part = std::make_unique<Part>();
            part->envelope = {b.minx, b.miny, b.maxx, b.maxy};
            part->polygon =
                closed_polygon({b.minx, b.maxx, b.maxx, b.minx}, {b.miny, b.miny, b.maxy, b.maxy});
            box_in_own_crs_.push_back(std::move(part));
        }
        double w = 0, s = 0, e = 0, n = 0;
        const char* area_name = nullptr;
        if (to.GetAreaOfUse(&w, &s, &e, &n, &area_name) && w <= e) {
            trusted_ = TrustedArea::shared(box_crs + '\x1f' + geom_crs, *transform, w, s, e, n);
            constexpr double kAreaMargin = 3.0;
            std::vector<BBox> cut;
            for (const BBox& b : pieces) {
                const BBox c{std::max(b.minx, w - kAreaMargin), std::max(b.miny, s - kAreaMargin),
                             std::min(b.maxx, e + kAreaMargin), std::min(b.maxy, n + kAreaMargin)};
                if (c.minx <= c.maxx && c.miny <= c.maxy) cut.push_back(c);
            }
            pieces = std::move(cut);
        }
        // No trusted area (no area of use, or one that folds): every geometry is carried into
        // the box's CRS, and the box is not carried at all (it could fold over too).
        if (check_outside_trusted_ && !trusted_) pieces.clear();
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
            densified_ring(b, xs, ys);
            carry_points(*transform, xs, ys);
            const size_t n = xs.size();
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
            GeometryPtr geometry = closed_polygon(xs, ys, shift);
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

std::optional<bool> BoxPredicate::intersects_in_box_crs(const OGRGeometry& geometry) const {
    // Split at ±180 so a footprint across the antimeridian stays where it is.
    char wrap[] = "WRAPDATELINE=YES";
    char* options[] = {wrap, nullptr};
    CPLPushErrorHandler(CPLQuietErrorHandler);
    GeometryPtr carried(
        OGRGeometryFactory::transformWithOptions(&geometry, to_box_crs_.get(), options));
    CPLPopErrorHandler();
    if (!carried || carried->IsEmpty()) return std::nullopt;
    OGREnvelope env;
    carried->getEnvelope(&env);
    const model::Box2 bounds{env.MinX, env.MinY, env.MaxX, env.MaxY};
    for (const auto& piece : box_in_own_crs_) {
        if (!overlaps(bounds, piece->envelope)) continue;
        if (inside(bounds, piece->envelope) || piece->polygon->Intersects(carried.get()))
            return true;
    }
    return false;
}

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
    auto carried_box = [&]() -> std::optional<bool> {
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
    };
    if (!check_outside_trusted_) return carried_box();
    if (trusted_) {
        // The carried box lies where the projection is exact, so what meets it truly meets the
        // box; a miss is only final for a geometry inside the area of use.
        const std::optional<bool> hit = carried_box();
        if (!hit || *hit || trusted_->contains(*bounds)) return hit;
    }
    if (!geometry && !parse()) return std::nullopt;
    if (const std::optional<bool> exact = intersects_in_box_crs(*geometry)) return exact;
    return carried_box();  // not carriable into the box's CRS: the carried box, if any, decides
}

}  // namespace taco::spatial
