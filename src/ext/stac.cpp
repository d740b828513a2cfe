// STAC and ISTAC sample extensions: the reference's columns, in its order and types
// (tacotoolbox sample/extensions/stac.py and istac.py, get_schema()).
#include <algorithm>
#include <cmath>

#include "ext/crs.hpp"
#include "ext/times.hpp"
#include "model/wkb.hpp"
#include "taco/errors.hpp"
#include "taco/extensions.hpp"

namespace taco::ext {
namespace {

using detail::where;

// A user-given centroid must be what we would write: a WKB point in lon/lat.
void check_centroid(const std::string& wkb, std::string_view sample_id, std::string_view field) {
    auto pt = model::wkb_point(wkb);
    if (!pt)
        throw SchemaError(where(sample_id, field) + "expected a WKB Point (EPSG:4326), got " +
                          std::to_string(wkb.size()) + " bytes that are not one");
    if (!(pt->x >= -180.0 && pt->x <= 180.0 && pt->y >= -90.0 && pt->y <= 90.0))
        throw SchemaError(where(sample_id, field) + "the point (" + std::to_string(pt->x) + ", " +
                          std::to_string(pt->y) + ") is outside [-180, 180] x [-90, 90]");
}

}  // namespace

std::vector<Field> fields(const Stac& stac, std::string_view sample_id) {
    if (!detail::parse_crs(stac.crs))
        throw SchemaError(where(sample_id, "stac:crs") + "'" + stac.crs +
                          "' is not a CRS GDAL/PROJ knows (expected e.g. 'EPSG:32633', WKT2 or a "
                          "PROJ string)");
    if (stac.tensor_shape.size() < 2)
        throw SchemaError(where(sample_id, "stac:tensor_shape") +
                          "expected at least 2 dimensions (rows, cols), got " +
                          std::to_string(stac.tensor_shape.size()));
    for (size_t i = 0; i < stac.tensor_shape.size(); ++i)
        if (stac.tensor_shape[i] < 1)
            throw SchemaError(where(sample_id, "stac:tensor_shape") + "dimension " +
                              std::to_string(i) + " is " + std::to_string(stac.tensor_shape[i]) +
                              ", expected a positive size");
    if (stac.geotransform.size() != 6)
        throw SchemaError(where(sample_id, "stac:geotransform") +
                          "expected 6 numbers (GDAL's geotransform), got " +
                          std::to_string(stac.geotransform.size()));
    const auto& gt = stac.geotransform;
    if (!std::all_of(gt.begin(), gt.end(), [](double v) { return std::isfinite(v); }))
        throw SchemaError(where(sample_id, "stac:geotransform") + "expected finite numbers");
    if (gt[1] * gt[5] - gt[2] * gt[4] == 0.0)
        throw SchemaError(where(sample_id, "stac:geotransform") +
                          "the pixel size is zero (the affine transform is singular)");
    auto times =
        detail::time_columns(stac.time_start, stac.time_end, stac.time_middle, "stac:", sample_id);
    std::string centroid;
    if (stac.centroid) {
        check_centroid(*stac.centroid, sample_id, "stac:centroid");
        centroid = *stac.centroid;
    } else {
        const size_t n = stac.tensor_shape.size();
        centroid = raster_centroid(stac.crs, gt, stac.tensor_shape[n - 2], stac.tensor_shape[n - 1],
                                   sample_id);
    }
    Value::List shape, transform;
    for (int64_t d : stac.tensor_shape) shape.emplace_back(static_cast<long long>(d));
    for (double v : gt) transform.emplace_back(v);
    return {
        {"stac:crs", Value(stac.crs)},
        {"stac:tensor_shape", Value::list(DataType::int64(), std::move(shape))},
        {"stac:geotransform", Value::list(DataType::float64(), std::move(transform))},
        {"stac:time_start", std::move(times.start)},
        {"stac:centroid", Value::binary(std::move(centroid))},
        {"stac:time_end", std::move(times.end)},
        {"stac:time_middle", std::move(times.middle)},
    };
}

std::vector<Field> fields(const Istac& istac, std::string_view sample_id) {
    // The geometry first: its errors say more than the CRS's when both are wrong.
    std::string centroid =
        istac.centroid ? *istac.centroid : geometry_centroid(istac.crs, istac.geometry, sample_id);
    if (istac.centroid) {
        geometry_centroid(istac.crs, istac.geometry, sample_id);  // validates geometry and CRS
        check_centroid(centroid, sample_id, "istac:centroid");
    }
    auto times = detail::time_columns(istac.time_start, istac.time_end, istac.time_middle,
                                      "istac:", sample_id);
    return {
        {"istac:crs", Value(istac.crs)},
        {"istac:geometry", Value::binary(istac.geometry)},
        {"istac:time_start", std::move(times.start)},
        {"istac:time_end", std::move(times.end)},
        {"istac:time_middle", std::move(times.middle)},
        {"istac:centroid", Value::binary(std::move(centroid))},
    };
}

}  // namespace taco::ext
