#include "ext/crs.hpp"

#include <cpl_error.h>
#include <ogr_spatialref.h>

#include <cmath>

#include "log/messages.hpp"

namespace taco::ext::detail {

std::string where(std::string_view sample_id, std::string_view field) {
    std::string out = "sample '";
    out += sample_id.empty() ? std::string_view("<unnamed>") : sample_id;
    out += "': field '";
    out += field;
    out += "': ";
    return out;
}

void SrsDeleter::operator()(OGRSpatialReference* srs) const {
    srs->Release();
}
void TransformDeleter::operator()(OGRCoordinateTransformation* ct) const {
    OGRCoordinateTransformation::DestroyCT(ct);
}

SrsPtr parse_crs(const std::string& crs) {
    if (crs.empty()) return nullptr;
    log::route_gdal_messages();
    SrsPtr srs(new OGRSpatialReference());
    // An unknown CRS becomes the caller's SchemaError, not a PROJ message on stderr.
    CPLPushErrorHandler(CPLQuietErrorHandler);
    const OGRErr err = srs->SetFromUserInput(crs.c_str(), kCrsInputLimits);
    CPLPopErrorHandler();
    if (err != OGRERR_NONE) return nullptr;
    // WKB and GDAL geotransforms are written x (longitude/easting) first.
    srs->SetAxisMappingStrategy(OAMS_TRADITIONAL_GIS_ORDER);
    return srs;
}

TransformPtr to_lonlat(const OGRSpatialReference& from) {
    OGRSpatialReference wgs84;
    wgs84.importFromEPSG(4326);
    wgs84.SetAxisMappingStrategy(OAMS_TRADITIONAL_GIS_ORDER);
    CPLPushErrorHandler(CPLQuietErrorHandler);
    TransformPtr ct(OGRCreateCoordinateTransformation(&from, &wgs84));
    CPLPopErrorHandler();
    return ct;
}

double wrap_longitude(double lon) {
    if (lon >= -180.0 && lon <= 180.0) return lon;
    double wrapped = std::fmod(lon + 180.0, 360.0);
    if (wrapped < 0) wrapped += 360.0;
    return wrapped - 180.0;
}

}  // namespace taco::ext::detail
