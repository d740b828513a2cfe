// `taco create --from DIR --stac`: the stac:* columns of a FILE sample from the raster's own
// georeferencing, read with GDAL (CRS, band/row/column counts, geotransform; the centroid from
// them). Times are taken from the sample's stac:time_* fields when the metadata table gave them.
#pragma once

#include <vector>

#include "taco/sample.hpp"

namespace taco::ext {

/// The 7 stac:* columns for `sample`:
///  - a FILE on disk that GDAL opens as a raster with a geotransform and a CRS: its values;
///  - any other sample (a FOLDER, a file GDAL does not open, a raster without georeferencing):
///    typed nulls, so that every sample of a level shares the columns (PIT);
///  - stac:time_start / time_end / time_middle keep the values the sample already has (from the
///    metadata table; SchemaError when such a field is not a timestamp).
/// SchemaError naming the sample for a raster whose georeferencing is unusable (a CRS PROJ
/// cannot carry to EPSG:4326, a singular geotransform).
std::vector<Field> stac_from_raster(const Sample& sample);

}  // namespace taco::ext
