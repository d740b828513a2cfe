#include "raster/decode.hpp"

#include <gdal.h>

#include <atomic>
#include <exception>
#include <mutex>
#include <thread>

#include "taco/errors.hpp"

namespace taco::raster {
namespace {

void ensure_gdal() {
    static std::once_flag once;
    std::call_once(once, [] { GDALAllRegister(); });
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
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    threads = std::min<unsigned>(threads, std::max<size_t>(1, paths.size()));
    std::vector<Raster> out(paths.size());
    std::atomic<size_t> next{0};
    std::exception_ptr first_error;
    std::mutex error_mutex;
    auto worker = [&] {
        for (size_t i; (i = next.fetch_add(1)) < paths.size();) {
            try {
                out[i] = decode(paths[i]);
            } catch (...) {
                std::lock_guard<std::mutex> lock(error_mutex);
                if (!first_error) first_error = std::current_exception();
                next = paths.size();  // stop handing out work
            }
        }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker);
    worker();
    for (auto& t : pool) t.join();
    if (first_error) std::rethrow_exception(first_error);
    return out;
}

}  // namespace taco::raster
