// The column descriptions tacotoolbox writes into COLLECTION.json's taco:field_schema for the
// extension columns (its get_field_descriptions(), tacotoolbox 0.x sample/extensions/*.py), so
// a dataset written by tacocore carries the same text.
#include <map>

#include "ext/descriptions.hpp"

namespace taco::ext {

const std::string* column_description(const std::string& name) {
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
