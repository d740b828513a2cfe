// GDAL/OSR helpers of the extensions room: parse a CRS the way tacotoolbox's pyproj accepts it
// ("EPSG:32633", WKT2, PROJ strings, PROJJSON) and carry points to EPSG:4326, longitude first.
#pragma once

#include <memory>
#include <string>
#include <string_view>

class OGRSpatialReference;
class OGRCoordinateTransformation;

namespace taco::ext::detail {

/// "sample 'ID': field 'NAME': " — the prefix every extension error starts with.
std::string where(std::string_view sample_id, std::string_view field);

struct SrsDeleter {
    void operator()(OGRSpatialReference* srs) const;
};
struct TransformDeleter {
    void operator()(OGRCoordinateTransformation* ct) const;
};
using SrsPtr = std::unique_ptr<OGRSpatialReference, SrsDeleter>;
using TransformPtr = std::unique_ptr<OGRCoordinateTransformation, TransformDeleter>;

/// The options given to OGRSpatialReference::SetFromUserInput so that a CRS string never reaches
/// the network or the file system: GDAL's SET_FROM_USER_INPUT_LIMITATIONS, spelled out because the
/// `taco` program loads GDAL on first use (src/gdal_lazy/), which forwards functions, not data. A
/// unit test holds the two equal.
inline constexpr const char* kCrsInputLimits[] = {"ALLOW_NETWORK_ACCESS=NO", "ALLOW_FILE_ACCESS=NO",
                                                  nullptr};

/// The CRS `crs` names with traditional GIS axis order, or nullptr when GDAL/PROJ does not know
/// it (no message on stderr: the caller raises the SchemaError).
SrsPtr parse_crs(const std::string& crs);

/// A transformation from `from` to EPSG:4326 (lon, lat); nullptr when PROJ has none.
TransformPtr to_lonlat(const OGRSpatialReference& from);

/// `lon` brought into [-180, 180] (181 -> -179); values already inside stay bit for bit.
double wrap_longitude(double lon);

}  // namespace taco::ext::detail
