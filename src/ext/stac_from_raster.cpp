#include "ext/stac_from_raster.hpp"

#include <cpl_error.h>
#include <gdal_priv.h>
#include <ogr_spatialref.h>

#include <memory>
#include <optional>

#include "ext/crs.hpp"
#include "raster/decode.hpp"
#include "taco/errors.hpp"
#include "taco/extensions.hpp"

namespace taco::ext {
namespace {

struct DatasetCloser {
    void operator()(GDALDataset* d) const { GDALClose(d); }
};

std::optional<int64_t> time_field(const Sample& s, const std::string& name) {
    const Value* v = s.get(name);
    if (!v || v->is_null()) return std::nullopt;
    if (v->type().id() != TypeId::Timestamp)
        throw SchemaError(detail::where(s.id(), name) +
                          "expected a timestamp (from the metadata "
                          "table), got " +
                          v->type().arrow_name());
    return v->as_int();
}

// "EPSG:32633" when the CRS is an EPSG one (what users and the reference write), else WKT2.
std::string crs_text(const OGRSpatialReference& srs) {
    OGRSpatialReference copy(srs);
    const char* name = copy.GetAuthorityName(nullptr);
    const char* code = copy.GetAuthorityCode(nullptr);
    if (!(name && code)) {
        CPLPushErrorHandler(CPLQuietErrorHandler);
        copy.AutoIdentifyEPSG();
        CPLPopErrorHandler();
        name = copy.GetAuthorityName(nullptr);
        code = copy.GetAuthorityCode(nullptr);
    }
    if (name && code) return std::string(name) + ":" + code;
    char* wkt = nullptr;
    const char* options[] = {"FORMAT=WKT2_2019", nullptr};
    srs.exportToWkt(&wkt, options);
    std::string out = wkt ? wkt : "";
    CPLFree(wkt);
    return out;
}

std::vector<Field> nulls(const Sample& s) {
    auto stamp = [&](const char* name) {
        std::optional<int64_t> t = time_field(s, name);
        return t ? Value::timestamp(*t) : Value::null(DataType::timestamp());
    };
    return {
        {"stac:crs", Value::null(DataType::string())},
        {"stac:tensor_shape", Value::null(DataType::list(DataType::int64()))},
        {"stac:geotransform", Value::null(DataType::list(DataType::float64()))},
        {"stac:time_start", stamp("stac:time_start")},
        {"stac:centroid", Value::null(DataType::binary())},
        {"stac:time_end", stamp("stac:time_end")},
        {"stac:time_middle", stamp("stac:time_middle")},
    };
}

}  // namespace

std::vector<Field> stac_from_raster(const Sample& sample) {
    if (!sample.is_file() || sample.path().empty()) return nulls(sample);
    // Once per process, never racing: --stac calls this from several threads (a concurrent
    // first GDALAllRegister() leaks a driver object, which LeakSanitizer caught under load).
    raster::register_drivers();
    CPLPushErrorHandler(CPLQuietErrorHandler);
    std::unique_ptr<GDALDataset, DatasetCloser> ds(GDALDataset::FromHandle(GDALOpenEx(
        sample.path().c_str(), GDAL_OF_RASTER | GDAL_OF_READONLY, nullptr, nullptr, nullptr)));
    CPLPopErrorHandler();
    if (!ds) return nulls(sample);
    double gt[6];
    const OGRSpatialReference* srs = ds->GetSpatialRef();
    if (ds->GetRasterCount() < 1 || ds->GetGeoTransform(gt) != CE_None || !srs || srs->IsEmpty())
        return nulls(sample);
    try {
        Stac stac;
        stac.crs = crs_text(*srs);
        stac.tensor_shape = {ds->GetRasterCount(), ds->GetRasterYSize(), ds->GetRasterXSize()};
        stac.geotransform.assign(gt, gt + 6);
        stac.time_start = time_field(sample, "stac:time_start");
        stac.time_end = time_field(sample, "stac:time_end");
        stac.time_middle = time_field(sample, "stac:time_middle");
        return fields(stac, sample.id());
    } catch (const SchemaError& e) {
        // Ids repeat across folders (every scene has its image.tif): the path says which one.
        throw SchemaError(std::string(e.what()) + " (file " + sample.path().string() + ")");
    }
}

}  // namespace taco::ext
