#include "model/extent.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "model/pit.hpp"
#include "model/time_format.hpp"
#include "model/wkb.hpp"
#include "taco/extensions.hpp"

namespace taco::model {
namespace {

std::vector<const Sample*> samples_at(const Tortilla& root, size_t level) {
    std::vector<const Sample*> cur;
    for (const auto& s : root.samples()) cur.push_back(&s);
    for (size_t l = 0; l < level; ++l) {
        std::vector<const Sample*> next;
        for (const Sample* s : cur)
            if (s->is_folder())
                for (const auto& c : s->children().samples()) next.push_back(&c);
        cur = std::move(next);
    }
    return cur;
}

bool has_column(const std::vector<ColumnType>& schema, const std::string& name, TypeId type) {
    return std::any_of(schema.begin(), schema.end(),
                       [&](const ColumnType& c) { return c.name == name && c.type.id() == type; });
}

// Each sample covers [time_start, time_end] (a missing end: the instant it has); the extent is
// the smallest range holding all of them. The reference takes min/max of time_middle first,
// which cuts off the first half of the earliest interval and the second half of the last.
std::optional<std::array<std::string, 2>> temporal_extent(const std::vector<const Sample*>& samples,
                                                          const std::vector<std::string>& cols) {
    int64_t lo = std::numeric_limits<int64_t>::max(), hi = std::numeric_limits<int64_t>::min();
    for (const Sample* s : samples) {
        for (const auto& col : cols) {  // start, middle, end: the first known is the earliest
            const Value* v = s->get(col);
            if (v && !v->is_null()) {
                lo = std::min(lo, v->as_int());
                break;
            }
        }
        for (auto it = cols.rbegin(); it != cols.rend(); ++it) {  // end, middle, start
            const Value* v = s->get(*it);
            if (v && !v->is_null()) {
                hi = std::max(hi, v->as_int());
                break;
            }
        }
    }
    if (lo > hi) return std::nullopt;
    return std::array<std::string, 2>{format_iso_utc(lo), format_iso_utc(hi)};
}

}  // namespace

// The smallest arc of the circle covering every longitude interval, cut at the widest gap
// between them. A box across the antimeridian is chosen only when that arc is narrower than
// half the globe: points spread over several continents (San Francisco, Paris, Tokyo) keep a
// plain [min, max] box.
std::pair<double, double> longitude_arc(const std::vector<std::pair<double, double>>& arcs) {
    std::vector<std::pair<double, double>> pieces;  // on [-180, 180], none crossing
    for (auto [w, e] : arcs) {
        if (w <= e) {
            pieces.emplace_back(w, e);
        } else {  // crosses the antimeridian
            pieces.emplace_back(w, 180.0);
            pieces.emplace_back(-180.0, e);
        }
    }
    std::sort(pieces.begin(), pieces.end());
    std::vector<std::pair<double, double>> merged;
    for (const auto& p : pieces) {
        if (!merged.empty() && p.first <= merged.back().second)
            merged.back().second = std::max(merged.back().second, p.second);
        else
            merged.push_back(p);
    }
    double widest = (merged.front().first + 360.0) - merged.back().second;  // across ±180
    size_t cut = 0;                                                         // 0 = normal [min, max]
    for (size_t i = 1; i < merged.size(); ++i) {
        const double gap = merged[i].first - merged[i - 1].second;
        if (gap > widest) {
            widest = gap;
            cut = i;
        }
    }
    if (cut == 0 || 360.0 - widest >= 180.0) return {merged.front().first, merged.back().second};
    return {merged[cut].first, merged[cut - 1].second};  // crosses the antimeridian: west > east
}

ExtentColumns extent_columns(const std::vector<ColumnType>& schema) {
    ExtentColumns cols;
    // The first of STAC, then ISTAC, with a place and time_start; ISTAC's place may be its
    // geometry alone, with the CRS that places it (without istac:crs a level's footprints say
    // nowhere, and a deeper level's centroids decide, as in the reference).
    for (const char* p : {"stac:", "istac:"}) {
        const std::string pre = p;
        const bool placed =
            has_column(schema, pre + "centroid", TypeId::Binary) ||
            (pre == "istac:" && has_column(schema, pre + "geometry", TypeId::Binary) &&
             has_column(schema, pre + "crs", TypeId::String));
        if (placed && has_column(schema, pre + "time_start", TypeId::Timestamp)) {
            cols.prefix = pre;
            break;
        }
    }
    if (cols.prefix.empty()) return cols;
    cols.has_centroid = has_column(schema, cols.prefix + "centroid", TypeId::Binary);
    cols.by_geometry = cols.prefix == "istac:" &&
                       has_column(schema, "istac:geometry", TypeId::Binary) &&
                       has_column(schema, "istac:crs", TypeId::String);
    for (const char* suffix : {"time_start", "time_middle", "time_end"})
        if (has_column(schema, cols.prefix + suffix, TypeId::Timestamp))
            cols.time_columns.push_back(cols.prefix + suffix);
    return cols;
}

void PlaceBounds::add(std::optional<std::string_view> crs, std::optional<std::string_view> geometry,
                      std::optional<std::string_view> centroid) {
    // The footprint's own bounds, carried to EPSG:4326 (the reference uses only centroids, so
    // its box misses most of every footprint). An unreadable footprint falls back to the
    // centroid.
    if (crs && geometry) {
        if (auto b = ext::geometry_bounds_4326(std::string(*crs), *geometry)) {
            arcs_.emplace_back(b->west, b->east);
            south_ = std::min(south_, b->south);
            north_ = std::max(north_, b->north);
            return;
        }
    }
    if (!centroid) return;
    const auto pt = wkb_point(*centroid);
    if (!pt || !std::isfinite(pt->x) || !std::isfinite(pt->y)) return;
    arcs_.emplace_back(pt->x, pt->x);
    south_ = std::min(south_, pt->y);
    north_ = std::max(north_, pt->y);
}

void PlaceBounds::add_box(const std::array<double, 4>& box) {
    arcs_.emplace_back(box[0], box[2]);
    south_ = std::min(south_, box[1]);
    north_ = std::max(north_, box[3]);
}

std::optional<std::array<double, 4>> PlaceBounds::bounds() const {
    if (arcs_.empty()) return std::nullopt;
    const auto [west, east] = longitude_arc(arcs_);
    return std::array<double, 4>{west, south_, east, north_};
}

Extent compute_extent(const Tortilla& root) {
    Extent extent;  // global box, no temporal
    auto schemas = level_schemas(root);
    for (size_t level = 0; level < schemas.size(); ++level) {
        const ExtentColumns cols = extent_columns(schemas[level]);
        if (cols.prefix.empty()) continue;
        const auto samples = samples_at(root, level);
        // A null Value is no value: the row falls back, or adds nothing.
        auto text = [](const Sample* s,
                       const std::string& name) -> std::optional<std::string_view> {
            const Value* v = s->get(name);
            if (!v || v->is_null()) return std::nullopt;
            return std::string_view(v->as_string());
        };
        PlaceBounds place;
        for (const Sample* s : samples) {
            if (cols.by_geometry)
                place.add(text(s, "istac:crs"), text(s, "istac:geometry"),
                          text(s, cols.prefix + "centroid"));
            else
                place.add(std::nullopt, std::nullopt, text(s, cols.prefix + "centroid"));
        }
        if (auto box = place.bounds()) extent.spatial = *box;
        extent.temporal = temporal_extent(samples, cols.time_columns);
        break;
    }
    return extent;
}

}  // namespace taco::model
