// Sample extensions with tacotoolbox's names and columns (spec §5, §7): STAC, ISTAC, Scaling,
// Split. Each is a plain struct of arguments; `fields(...)` validates it and returns the typed
// columns exactly as the reference writes them (names, order, Arrow types), and
// `extend(sample, ...)` adds them to a sample. Centroids are computed in EPSG:4326 with PROJ
// through GDAL's OSR, and placed on the right side of the antimeridian.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "taco/sample.hpp"
#include "taco/value.hpp"

namespace taco::ext {

/// Regular raster metadata, `stac:*` (tacotoolbox `STAC`). Times are microseconds since the Unix
/// epoch, UTC. `time_middle` defaults to the floor of (start + end) / 2 when `time_end` is
/// given; `centroid` (WKB point, EPSG:4326) defaults to the centre of the grid.
/// `time_start` is optional here only for `taco create --stac` without a time table: the
/// column is then a typed null (the Python `STAC` requires it, as the reference does).
struct Stac {
    std::string crs;
    std::vector<int64_t> tensor_shape;  // >= 2 dimensions, each >= 1; the last two are rows, cols
    std::vector<double> geotransform;   // GDAL's 6 coefficients
    std::optional<int64_t> time_start;
    std::optional<int64_t> time_end;
    std::optional<int64_t> time_middle;
    std::optional<std::string> centroid;
};

/// Irregular footprint metadata, `istac:*` (tacotoolbox `ISTAC`). `geometry` is WKB in `crs`;
/// `centroid` defaults to the geometry's centroid carried to EPSG:4326.
struct Istac {
    std::string crs;
    std::string geometry;
    int64_t time_start = 0;
    std::optional<int64_t> time_end;
    std::optional<int64_t> time_middle;
    std::optional<std::string> centroid;
};

/// Packing metadata, `scaling:*` (tacotoolbox `Scaling`): unpacked = packed * factor + offset.
/// Scalars give float32 columns; when either is a list (`per_band`), both are list<float32>.
struct Scaling {
    bool per_band = false;
    std::vector<float> scale_factor;  // scalar: 0 or 1 element (absent = null)
    std::vector<float> scale_offset;
    std::optional<std::array<int32_t, 4>> padding;  // top, right, bottom, left
};

/// `stac:*` columns: crs, tensor_shape, geotransform, time_start, centroid, time_end,
/// time_middle. SchemaError naming `sample_id` and the field for an unknown CRS, a geotransform
/// that is not 6 finite numbers (or is singular), a shape with < 2 dimensions or a dimension < 1,
/// time_end before time_start, a centroid that is not a WKB point in [-180,180]x[-90,90].
std::vector<Field> fields(const Stac& stac, std::string_view sample_id);
/// `istac:*` columns: crs, geometry, time_start, time_end, time_middle, centroid. SchemaError
/// for an unknown CRS, a geometry that is not WKB or is empty, reversed times.
std::vector<Field> fields(const Istac& istac, std::string_view sample_id);
/// `scaling:*` columns: scale_factor, scale_offset, padding. SchemaError for a zero factor.
std::vector<Field> fields(const Scaling& scaling, std::string_view sample_id);
/// The `split` column; SchemaError unless "train", "test" or "validation".
std::vector<Field> split_fields(const std::string& split, std::string_view sample_id);

/// Adds the extension's columns to `sample` (errors name the sample).
template <class Extension>
Sample& extend(Sample& sample, const Extension& extension) {
    return sample.extend_with(fields(extension, sample.id()));
}
inline Sample& extend_split(Sample& sample, const std::string& split) {
    return sample.extend_with(split_fields(split, sample.id()));
}

/// WKB point (little endian, 21 bytes, as shapely writes it) in EPSG:4326 of the centre of a
/// rows x cols grid placed by `geotransform` in `crs`. Longitudes are brought into [-180, 180]
/// (a grid centred past the antimeridian gets the equivalent longitude). SchemaError as above.
std::string raster_centroid(const std::string& crs, const std::vector<double>& geotransform,
                            int64_t rows, int64_t cols, std::string_view sample_id);
/// WKB point in EPSG:4326 of the centroid of a WKB geometry in `crs`. In a geographic CRS a
/// geometry spanning more than 180° of longitude is taken to cross the antimeridian (its
/// western longitudes are shifted by +360° before the centroid is computed), so a footprint
/// across ±180 gets a centroid near ±180, not near 0.
std::string geometry_centroid(const std::string& crs, std::string_view wkb,
                              std::string_view sample_id);

/// The longitude/latitude bounds of a WKB geometry in `crs`, in EPSG:4326: every vertex is
/// carried over (edges densified in projected CRSs). `west > east` when the geometry crosses
/// the antimeridian. nullopt when the geometry or CRS cannot be read (the caller decides).
struct LonLatBounds {
    double west, south, east, north;
};
std::optional<LonLatBounds> geometry_bounds_4326(const std::string& crs, std::string_view wkb);

// ---------------------------------------------------------------------------------------------
// TACO-level extensions (tacotoolbox's TacoExtension): keys of COLLECTION.json. Each is a plain
// struct; `collection_fields(...)` validates it and returns its keys, in tacotoolbox's order, as
// (key, JSON text) pairs as CollectionInfo::extensions holds them; `extend(info, ...)` adds them.

/// One band of OpticalData; every field but the name is optional (JSON null when absent).
struct SpectralBand {
    std::string name;
    std::optional<int64_t> index;
    std::optional<std::string> common_name, description, unit;
    std::optional<double> center_wavelength, full_width_half_max;  // nanometres
};

/// `optical:sensor`, `optical:bands`, `optical:num_bands`.
struct OpticalData {
    std::string sensor;
    std::vector<SpectralBand> bands;
};

/// OpticalData from tacotoolbox's band tables: "sentinel2msi" (every band) or
/// "landsat8oli[B02,B03,B04]" (these bands, in this order); spaces are ignored. SchemaError for
/// an unknown sensor (listing the known ones) or band (listing the sensor's).
OpticalData optical_data(std::string_view sensor);
/// The sensors optical_data() knows, in tacotoolbox's order.
const std::vector<std::string>& supported_sensors();
/// The band tables as JSON, {"_source": ..., "sensors": {sensor: {band: {...}}}}: the one copy,
/// src/ext/sensor_bands.json (tacotoolbox 0.26.9), compiled into the library.
std::string_view sensor_bands_json();

/// One class of Labels; `category` is stored as text, as tacotoolbox stores it.
struct LabelClass {
    std::string name;
    std::string category;
    std::optional<std::string> description;
};
/// `labels:classes`, `labels:description`, `labels:num_classes`. Names and categories unique.
struct Labels {
    std::vector<LabelClass> classes;
    std::optional<std::string> description;
};

struct Publication {
    std::string doi, citation;
    std::optional<std::string> summary;
};
/// `publications`: a list of {doi, citation, summary}.
struct Publications {
    std::vector<Publication> publications;
};

/// `split:strategy`: random, stratified, manual, other, none or unknown.
struct SplitStrategy {
    std::string strategy;
};

using CollectionFields = std::vector<std::pair<std::string, std::string>>;

/// The COLLECTION.json keys of each extension. SchemaError naming the extension and the field
/// (an empty name or DOI, repeated class names or categories, an unknown strategy, ...).
CollectionFields collection_fields(const OpticalData& optical);
CollectionFields collection_fields(const Labels& labels);
CollectionFields collection_fields(const Publications& publications);
CollectionFields collection_fields(const SplitStrategy& strategy);

/// An extension from tacotoolbox's constructor arguments as a JSON object (what its
/// model_dump() gives, and what `taco create --collection-extension` reads):
///   "OpticalData"   {"sensor": "sentinel2msi[B02,B03]"} or {"sensor": ..., "bands": [{...}]}
///   "Labels"        {"label_classes": [{"name", "category", "description"}],
///                    "label_description": ...}
///   "Publications"  {"publications": [{"doi", "citation", "summary"}]}
///   "SplitStrategy" {"strategy": "random"}
/// Returns its keys. SchemaError naming `where`, the extension and the field for anything else.
CollectionFields collection_fields_from_json(std::string_view extension, std::string_view json,
                                             std::string_view where = "");

/// Adds `fields` to the extension keys of a collection: a key already there is replaced in place,
/// a new one appended.
void add_collection_fields(std::vector<std::pair<std::string, std::string>>& extensions,
                           const CollectionFields& fields);

}  // namespace taco::ext
