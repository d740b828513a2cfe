// TACO-optimized GeoTIFF: GDAL's COG driver does the writing; this file chooses its options,
// embeds IMAGE_INFO and checks an existing file against the same rules.
#include "taco/tog.hpp"

#include <cpl_conv.h>
#include <cpl_vsi.h>
#include <gdal.h>
#include <gdal_utils.h>

#include <cstring>
#include <mutex>

#include <nlohmann/json.hpp>

#include "io/staged_output.hpp"
#include "paths/path_display.hpp"
#include "raster/gdal_drivers.hpp"
#include "taco/errors.hpp"

namespace taco {
namespace {

struct Handle {
    GDALDatasetH h = nullptr;
    Handle() = default;
    explicit Handle(GDALDatasetH d) : h(d) {}
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
    ~Handle() {
        if (h) GDALClose(h);
    }
};

// Statistics are computed on a read-only dataset: with PAM on, GDAL would write them into an
// .aux.xml beside the input, which export must never touch.
struct NoPam {
    NoPam() { CPLSetThreadLocalConfigOption("GDAL_PAM_ENABLED", "NO"); }
    ~NoPam() { CPLSetThreadLocalConfigOption("GDAL_PAM_ENABLED", nullptr); }
};

std::string gdal_error() {
    const char* m = CPLGetLastErrorMsg();
    return m && *m ? m : "unknown GDAL error";
}

// `gdalinfo -hist -approx_stats -json -nofl` of `ds`, as the spec asks for IMAGE_INFO.
std::string image_info(GDALDatasetH ds, const std::string& input) {
    const char* argv[] = {"-hist", "-approx_stats", "-json", "-nofl", nullptr};
    GDALInfoOptions* opts = GDALInfoOptionsNew(const_cast<char**>(argv), nullptr);
    char* text = GDALInfo(ds, opts);
    GDALInfoOptionsFree(opts);
    if (!text)
        throw IoError("GDAL cannot compute the statistics of " + input + ": " + gdal_error());
    std::string out(text);
    CPLFree(text);
    // gdalinfo names the file in its JSON ("description", "files"): a path that is not UTF-8
    // would make IMAGE_INFO invalid JSON, so such bytes are written `\\xff` inside the strings.
    return paths::escape_invalid_utf8(out, "\\\\x");
}

}  // namespace

void write_tog(const std::string& input, const std::filesystem::path& output,
               const TogOptions& options) {
    if (options.block_size <= 0 || options.block_size % 16 != 0) {
        throw SchemaError("block size " + std::to_string(options.block_size) +
                          " is not a positive multiple of 16 (TOG tiles, spec taco-0.2.0)");
    }
    raster::register_drivers();
    NoPam no_pam;
    Handle src(
        GDALOpenEx(input.c_str(), GDAL_OF_RASTER | GDAL_OF_READONLY, nullptr, nullptr, nullptr));
    if (!src.h) throw IoError("GDAL cannot open " + input + " as a raster: " + gdal_error());
    if (GDALGetRasterCount(src.h) == 0) throw IoError(input + " has no raster band");
    const std::string info = image_info(src.h, input);

    // A virtual copy carries IMAGE_INFO into the default metadata domain, which the GeoTIFF
    // writer stores in TIFFTAG_GDAL_METADATA; the input is not modified.
    GDALDriverH vrt_driver = GDALGetDriverByName("VRT");
    Handle vrt(GDALCreateCopy(vrt_driver, "", src.h, FALSE, nullptr, nullptr, nullptr));
    if (!vrt.h) throw IoError("GDAL cannot wrap " + input + ": " + gdal_error());
    GDALSetMetadataItem(vrt.h, "IMAGE_INFO", info.c_str(), nullptr);

    io::StagedOutput staged(output, options.overwrite);
    const std::string block = "BLOCKSIZE=" + std::to_string(options.block_size);
    const std::string level = "LEVEL=" + std::to_string(options.zstd_level);
    const char* copts[] = {"COMPRESS=ZSTD",  level.c_str(),   block.c_str(),          "BIGTIFF=YES",
                           "OVERVIEWS=NONE", "PREDICTOR=YES", "NUM_THREADS=ALL_CPUS", nullptr};
    GDALDriverH cog = GDALGetDriverByName("COG");
    if (!cog) throw IoError("this GDAL has no COG driver (GDAL >= 3.1 needed)");
    const std::string staging = staged.staging().string();
    Handle out(GDALCreateCopy(cog, staging.c_str(), vrt.h, FALSE, const_cast<char**>(copts),
                              nullptr, nullptr));
    if (!out.h) {
        throw IoError("GDAL cannot write " + output.string() + ": " + gdal_error() +
                      " (nothing was written)");
    }
    GDALClose(out.h);
    out.h = nullptr;
    staged.commit();
}

TogCheck check_tog(const std::string& path) {
    raster::register_drivers();
    NoPam no_pam;
    TogCheck check;
    auto problem = [&](std::string p) { check.problems.push_back(std::move(p)); };
    Handle ds(
        GDALOpenEx(path.c_str(), GDAL_OF_RASTER | GDAL_OF_READONLY, nullptr, nullptr, nullptr));
    if (!ds.h) {
        problem("not a raster GDAL can open: " + gdal_error());
        return check;
    }
    const char* driver = GDALGetDriverShortName(GDALGetDatasetDriver(ds.h));
    if (std::strcmp(driver, "GTiff") != 0) {
        problem(std::string("format is ") + driver + ", expected GeoTIFF");
        return check;
    }
    check.is_geotiff = true;
    auto item = [&](const char* key, const char* domain) -> std::string {
        const char* v = GDALGetMetadataItem(ds.h, key, domain);
        return v ? v : "";
    };
    if (item("LAYOUT", "IMAGE_STRUCTURE") != "COG") problem("not written with the COG layout");
    const std::string compression = item("COMPRESSION", "IMAGE_STRUCTURE");
    if (compression != "ZSTD")
        problem("compression is " + (compression.empty() ? "none" : compression) +
                ", expected ZSTD");
    const std::string predictor = item("PREDICTOR", "IMAGE_STRUCTURE");
    if (predictor.empty() || predictor == "1") problem("no predictor, expected PREDICTOR=YES");
    GDALRasterBandH band = GDALGetRasterBand(ds.h, 1);
    int bx = 0, by = 0;
    GDALGetBlockSize(band, &bx, &by);
    const int w = GDALGetRasterXSize(ds.h), h = GDALGetRasterYSize(ds.h);
    // A raster smaller than one tile is still tiled; GDAL reports strips as width x rows.
    if (bx != by || bx % 16 != 0 || (bx == w && by != h && by < 16)) {
        problem("blocks are " + std::to_string(bx) + "x" + std::to_string(by) +
                ", expected square tiles of a multiple of 16 pixels");
    }
    if (GDALGetOverviewCount(band) != 0)
        problem("has " + std::to_string(GDALGetOverviewCount(band)) + " overviews, expected none");
    // BigTIFF: version 43 in the header ('II' 43 0 or 'MM' 0 43).
    unsigned char head[4] = {0, 0, 0, 0};
    if (VSILFILE* f = VSIFOpenL(path.c_str(), "rb")) {
        if (VSIFReadL(head, 1, 4, f) != 4) head[0] = 0;
        VSIFCloseL(f);
    }
    const bool big = (head[0] == 'I' && head[2] == 43) || (head[0] == 'M' && head[3] == 43);
    if (!big) problem("not a BigTIFF");
    const std::string info = item("IMAGE_INFO", nullptr);
    if (info.empty()) {
        problem("no IMAGE_INFO statistics in TIFFTAG_GDAL_METADATA");
    } else if (!nlohmann::json::accept(info)) {
        problem("IMAGE_INFO is not the JSON of gdalinfo -json");
    }
    check.is_tog = check.problems.empty();
    return check;
}

}  // namespace taco
