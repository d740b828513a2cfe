// The column descriptions tacotoolbox writes into COLLECTION.json's taco:field_schema for the
// extension columns (its get_field_descriptions(), tacotoolbox 0.x sample/extensions/*.py), so
// a dataset written by tacocore carries the same text.
#include <map>
#include <vector>

#include "ext/descriptions.hpp"

namespace taco::ext {

namespace {

// Each extension's columns (tacotoolbox get_schema()).
const std::vector<std::vector<std::string>>& groups() {
    static const std::vector<std::vector<std::string>> g = {
        {"stac:crs", "stac:tensor_shape", "stac:geotransform", "stac:time_start", "stac:centroid",
         "stac:time_end", "stac:time_middle"},
        {"istac:crs", "istac:geometry", "istac:time_start", "istac:time_end", "istac:time_middle",
         "istac:centroid"},
        {"scaling:scale_factor", "scaling:scale_offset", "scaling:padding"},
        {"split"},
    };
    return g;
}

bool has(const std::vector<ColumnType>& level, const std::string& name) {
    for (const auto& c : level)
        if (c.name == name) return true;
    return false;
}

}  // namespace

const std::string* column_description(const std::string& name,
                                      const std::vector<ColumnType>& level) {
    for (const auto& group : groups()) {
        bool member = false;
        for (const auto& n : group) member = member || n == name;
        if (!member) continue;
        for (const auto& n : group)
            if (!has(level, n)) return nullptr;
    }
    static const std::map<std::string, std::string> texts = {
        {"stac:crs", "Coordinate reference system (WKT2, EPSG, or PROJ)"},
        {"stac:tensor_shape", "Raster dimensions [bands, height, width]"},
        {"stac:geotransform", "GDAL affine transform"},
        {"stac:time_start", "Start timestamp (\u03bcs since Unix epoch, UTC)"},
        {"stac:centroid", "Center point in EPSG:4326 (WKB)"},
        {"stac:time_end", "End timestamp (\u03bcs since Unix epoch, UTC)"},
        {"stac:time_middle", "Middle timestamp (\u03bcs since Unix epoch, UTC)"},
        {"istac:crs", "Coordinate reference system (WKT2, EPSG, or PROJ)"},
        {"istac:geometry", "Spatial footprint in source CRS (WKB)"},
        {"istac:time_start", "Start timestamp (\u03bcs since Unix epoch, UTC)"},
        {"istac:time_end", "End timestamp (\u03bcs since Unix epoch, UTC)"},
        {"istac:time_middle", "Middle timestamp (\u03bcs since Unix epoch, UTC)"},
        {"istac:centroid", "Center point in EPSG:4326 (WKB)"},
        {"scaling:scale_factor",
         "Multiplicative scaling factor for unpacking data (Float32 or List[Float32])"},
        {"scaling:scale_offset", "Additive offset for unpacking data (Float32 or List[Float32])"},
        {"scaling:padding", "Spatial padding [top, right, bottom, left] in pixels (List[Int32])"},
        {"split", "Dataset partition identifier (train, test, or validation)"},
    };
    auto it = texts.find(name);
    return it == texts.end() ? nullptr : &it->second;
}

}  // namespace taco::ext
