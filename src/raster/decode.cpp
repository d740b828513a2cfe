#include "raster/decode.hpp"

#include <gdal.h>

#include <mutex>

#include "io/parallel.hpp"
#include "log/messages.hpp"
#include "taco/errors.hpp"

namespace taco::raster {
namespace {

void ensure_gdal() {
    static std::once_flag once;
    std::call_once(once, [] {
        log::route_gdal_messages();
        GDALAllRegister();
    });
}

const char* numpy_name(GDALDataType t) {
    switch (t) {
        case GDT_Byte:
            return "uint8";
        case GDT_UInt16:
            return "uint16";
        case GDT_Int16:
            return "int16";
        case GDT_UInt32:
            return "uint32";
        case GDT_Int32:
            return "int32";
        case GDT_Float32:
            return "float32";
        case GDT_Float64:
            return "float64";
        case GDT_UInt64:
            return "uint64";
        case GDT_Int64:
            return "int64";
        default:
            return nullptr;  // complex types are not supported
    }
}

struct DatasetHandle {
    GDALDatasetH h;
    ~DatasetHandle() {
        if (h) GDALClose(h);
    }
};

}  // namespace

Raster decode(const std::string& path) {
    ensure_gdal();
    DatasetHandle ds{GDALOpenEx(path.c_str(),
                                GDAL_OF_RASTER | GDAL_OF_READONLY | GDAL_OF_VERBOSE_ERROR, nullptr,
                                nullptr, nullptr)};
    if (!ds.h) throw IoError("GDAL cannot open " + path + ": " + CPLGetLastErrorMsg());
    Raster r;
    r.bands = GDALGetRasterCount(ds.h);
    r.width = GDALGetRasterXSize(ds.h);
    r.height = GDALGetRasterYSize(ds.h);
    if (r.bands == 0) throw IoError(path + " has no raster bands");
    GDALDataType type = GDALGetRasterDataType(GDALGetRasterBand(ds.h, 1));
    const char* name = numpy_name(type);
    if (!name) throw IoError(path + ": unsupported pixel type " + GDALGetDataTypeName(type));
    r.dtype = name;
    r.element_size = static_cast<size_t>(GDALGetDataTypeSizeBytes(type));
    r.data.resize(r.element_size * static_cast<size_t>(r.bands) * r.width * r.height);
    CPLErr err = GDALDatasetRasterIO(ds.h, GF_Read, 0, 0, r.width, r.height, r.data.data(), r.width,
                                     r.height, type, r.bands, nullptr, 0, 0, 0);
    if (err != CE_None) throw IoError("GDAL cannot read " + path + ": " + CPLGetLastErrorMsg());
    return r;
}

std::vector<Raster> decode_many(const std::vector<std::string>& paths, unsigned threads) {
    std::vector<Raster> out(paths.size());
    io::parallel_for(paths.size(), threads, [&](size_t i) { out[i] = decode(paths[i]); });
    return out;
}

}  // namespace taco::raster
