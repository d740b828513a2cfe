#include "model/extent.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "model/pit.hpp"
#include "model/time_format.hpp"
#include "model/wkb.hpp"

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

}  // namespace

// The smallest arc of the circle holding every longitude, cut at the widest gap. A box across
// the antimeridian is chosen only when that arc is narrower than half the globe: points spread
// over several continents (San Francisco, Paris, Tokyo) keep a plain [min, max] box.
std::pair<double, double> longitude_interval(std::vector<double> lons) {
    std::sort(lons.begin(), lons.end());
    double widest = (lons.front() + 360.0) - lons.back();  // the gap across the antimeridian
    size_t cut = 0;                                        // 0 = normal [min, max]
    for (size_t i = 1; i < lons.size(); ++i) {
        double gap = lons[i] - lons[i - 1];
        if (gap > widest) {
            widest = gap;
            cut = i;
        }
    }
    if (cut == 0 || 360.0 - widest >= 180.0) return {lons.front(), lons.back()};
    return {lons[cut], lons[cut - 1]};  // crosses the antimeridian: west > east
}

Extent compute_extent(const Tortilla& root) {
    Extent extent;  // global box, no temporal
    auto schemas = level_schemas(root);
    for (size_t level = 0; level < schemas.size(); ++level) {
        std::string prefix;
        for (const char* p : {"stac:", "istac:"}) {
            if (has_column(schemas[level], std::string(p) + "centroid", TypeId::Binary) &&
                has_column(schemas[level], std::string(p) + "time_start", TypeId::Timestamp)) {
                prefix = p;
                break;
            }
        }
        if (prefix.empty()) continue;
        auto samples = samples_at(root, level);
        std::vector<double> lons;
        double south = std::numeric_limits<double>::infinity(), north = -south;
        for (const Sample* s : samples) {
            const Value* v = s->get(prefix + "centroid");
            if (!v || v->is_null()) continue;
            auto pt = wkb_point(v->as_string());
            if (!pt || !std::isfinite(pt->x) || !std::isfinite(pt->y)) continue;
            lons.push_back(pt->x);
            south = std::min(south, pt->y);
            north = std::max(north, pt->y);
        }
        if (!lons.empty()) {
            auto [west, east] = longitude_interval(lons);
            extent.spatial = {west, south, east, north};
        }
        for (const char* suffix : {"time_middle", "time_start", "time_end"}) {
            std::string col = prefix + suffix;
            if (!has_column(schemas[level], col, TypeId::Timestamp)) continue;
            int64_t lo = std::numeric_limits<int64_t>::max(),
                    hi = std::numeric_limits<int64_t>::min();
            for (const Sample* s : samples) {
                const Value* v = s->get(col);
                if (!v || v->is_null()) continue;
                lo = std::min(lo, v->as_int());
                hi = std::max(hi, v->as_int());
            }
            if (lo <= hi) {
                extent.temporal =
                    std::array<std::string, 2>{format_iso_utc(lo), format_iso_utc(hi)};
                break;
            }
        }
        break;
    }
    return extent;
}

}  // namespace taco::model
