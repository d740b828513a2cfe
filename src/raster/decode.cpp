#include "raster/decode.hpp"

#include <gdal.h>

#include <mutex>

#include "io/own_connections.hpp"
#include "io/parallel.hpp"
#include "raster/local_file_check.hpp"
#include "taco/errors.hpp"

namespace taco::raster {
namespace {

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
    explicit DatasetHandle(GDALDatasetH handle) : h(handle) {}
    DatasetHandle(DatasetHandle&& o) noexcept : h(o.h) { o.h = nullptr; }
    DatasetHandle(const DatasetHandle&) = delete;
    DatasetHandle& operator=(const DatasetHandle&) = delete;
    ~DatasetHandle() {
        if (h) GDALClose(h);
    }
};

DatasetHandle open_raster(const std::string& path) {
    refuse_non_regular_local_file(path);  // GDAL would block on a FIFO
    register_drivers();
    DatasetHandle ds{GDALOpenEx(path.c_str(),
                                GDAL_OF_RASTER | GDAL_OF_READONLY | GDAL_OF_VERBOSE_ERROR, nullptr,
                                nullptr, nullptr)};
    if (!ds.h) throw IoError("GDAL cannot open " + path + ": " + CPLGetLastErrorMsg());
    return ds;
}

RasterShape shape_of(GDALDatasetH h, const std::string& path) {
    RasterShape s;
    s.bands = GDALGetRasterCount(h);
    s.width = GDALGetRasterXSize(h);
    s.height = GDALGetRasterYSize(h);
    if (s.bands == 0) throw IoError(path + " has no raster bands");
    GDALDataType type = GDALGetRasterDataType(GDALGetRasterBand(h, 1));
    const char* name = numpy_name(type);
    if (!name) throw IoError(path + ": unsupported pixel type " + GDALGetDataTypeName(type));
    s.dtype = name;
    s.element_size = static_cast<size_t>(GDALGetDataTypeSizeBytes(type));
    return s;
}

void read_pixels(GDALDatasetH h, const RasterShape& s, const std::string& path, void* dst) {
    const GDALDataType type = GDALGetRasterDataType(GDALGetRasterBand(h, 1));
    CPLErr err = GDALDatasetRasterIO(h, GF_Read, 0, 0, s.width, s.height, dst, s.width, s.height,
                                     type, s.bands, nullptr, 0, 0, 0);
    if (err != CE_None) throw IoError("GDAL cannot read " + path + ": " + CPLGetLastErrorMsg());
}

std::string describe(const RasterShape& s) {
    return std::to_string(s.bands) + "x" + std::to_string(s.height) + "x" +
           std::to_string(s.width) + " " + s.dtype;
}

}  // namespace

// Each public function opens and reads its raster in one piece of work that, for a network path
// in a forked child, runs off the thread the child began with (io/own_connections.hpp).

RasterShape probe(const std::string& path) {
    return io::with_own_connections(path, [&] {
        DatasetHandle ds = open_raster(path);
        return shape_of(ds.h, path);
    });
}

void decode_into(const std::string& path, const RasterShape& expect, void* dst) {
    io::with_own_connections(path, [&] {
        DatasetHandle ds = open_raster(path);
        const RasterShape s = shape_of(ds.h, path);
        if (!(s == expect)) {
            throw IoError(path + " is " + describe(s) + " (bands x height x width), expected " +
                          describe(expect) + " like the rest of the batch");
        }
        read_pixels(ds.h, s, path, dst);
    });
}

RasterShape decode_reusing(const std::string& path, std::vector<uint8_t>& buffer) {
    return io::with_own_connections(path, [&] {
        DatasetHandle ds = open_raster(path);
        const RasterShape s = shape_of(ds.h, path);
        if (buffer.size() != s.bytes()) buffer.resize(s.bytes());
        read_pixels(ds.h, s, path, buffer.data());
        return s;
    });
}

Raster decode(const std::string& path) {
    return io::with_own_connections(path, [&] {
        DatasetHandle ds = open_raster(path);
        const RasterShape s = shape_of(ds.h, path);
        Raster r;
        r.bands = s.bands;
        r.height = s.height;
        r.width = s.width;
        r.dtype = s.dtype;
        r.element_size = s.element_size;
        r.data.resize(s.bytes());
        read_pixels(ds.h, s, path, r.data.data());
        return r;
    });
}

std::vector<Raster> decode_many(const std::vector<std::string>& paths, unsigned threads,
                                const std::atomic<bool>* stop) {
    std::vector<Raster> out(paths.size());
    io::parallel_for(paths.size(), threads, [&](size_t i) {
        if (!stop || !stop->load(std::memory_order_relaxed)) out[i] = decode(paths[i]);
    });
    return out;
}

std::vector<DecodeFailure> decode_batch_into(const std::vector<std::string>& paths,
                                             const RasterShape& expect, uint8_t* dst,
                                             unsigned threads) {
    std::vector<std::string> errors(paths.size());
    const size_t slot = expect.bytes();
    io::parallel_for(paths.size(), threads, [&](size_t i) {
        try {
            decode_into(paths[i], expect, dst + i * slot);
        } catch (const std::exception& e) {
            errors[i] = e.what();
            if (errors[i].empty()) errors[i] = "unknown error decoding " + paths[i];
        }
    });
    std::vector<DecodeFailure> out;
    for (size_t i = 0; i < errors.size(); ++i)
        if (!errors[i].empty()) out.push_back({i, std::move(errors[i])});
    return out;
}

}  // namespace taco::raster
