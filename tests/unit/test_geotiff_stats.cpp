// geotiff:stats in C++ (include/taco/geotiff_stats.hpp): exact values on rasters whose answers
// are known by construction, the tree walk (folders, padding, mixed levels), threads and errors.
#include <gdal.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "taco/errors.hpp"
#include "taco/geotiff_stats.hpp"
#include "test_util.hpp"

namespace taco {
namespace {

// A 1-band uint16 GeoTIFF holding 0, 1, ..., w*h-1 (row major), optionally with a nodata value.
std::filesystem::path ramp(const std::filesystem::path& path, int w, int h, int nodata = -1) {
    GDALAllRegister();
    GDALDriverH drv = GDALGetDriverByName("GTiff");
    GDALDatasetH ds = GDALCreate(drv, path.c_str(), w, h, 1, GDT_UInt16, nullptr);
    std::vector<uint16_t> v(static_cast<size_t>(w) * h);
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<uint16_t>(i);
    GDALRasterBandH b = GDALGetRasterBand(ds, 1);
    if (nodata >= 0) GDALSetRasterNoDataValue(b, nodata);
    EXPECT_EQ(GDALRasterIO(b, GF_Write, 0, 0, w, h, v.data(), w, h, GDT_UInt16, 0, 0), CE_None);
    GDALClose(ds);
    return path;
}

std::vector<std::vector<double>> rows(const Value& v) {
    std::vector<std::vector<double>> out;
    for (const Value& band : v.as_list()) {
        out.emplace_back();
        for (const Value& x : band.as_list()) out.back().push_back(x.as_double());
    }
    return out;
}

TEST(GeotiffStats, ExactValuesOfARamp) {
    test::TempDir dir;
    // 0..99, nodata 0: valid 1..99 (99 of 100 pixels).
    const Sample s = Sample::file("r", ramp(dir.path() / "r.tif", 10, 10, 0));
    const Value v = geotiff_stats(s);
    ASSERT_EQ(v.type(), DataType::list(DataType::list(DataType::float32())));
    const auto r = rows(v);
    ASSERT_EQ(r.size(), 1u);
    ASSERT_EQ(r[0].size(), 9u);
    EXPECT_EQ(r[0][0], 1);
    EXPECT_EQ(r[0][1], 99);
    EXPECT_EQ(r[0][2], 50);
    EXPECT_NEAR(r[0][3], std::sqrt((99.0 * 99 - 1) / 12), 1e-4);  // population std of 1..99
    EXPECT_NEAR(r[0][4], 99, 1e-5);
    // numpy.percentile(range(1, 100), [25, 50, 75, 95]) = 25.5, 50, 74.5, 94.1
    EXPECT_NEAR(r[0][5], 25.5, 1e-5);
    EXPECT_NEAR(r[0][6], 50, 1e-5);
    EXPECT_NEAR(r[0][7], 74.5, 1e-5);
    EXPECT_NEAR(r[0][8], 94.1, 1e-4);
}

TEST(GeotiffStats, InMemoryBytesGiveTheSameValues) {
    test::TempDir dir;
    const auto path = ramp(dir.path() / "m.tif", 7, 5);
    std::ifstream in(path, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    EXPECT_EQ(rows(geotiff_stats(Sample::bytes("m", bytes.str()))),
              rows(geotiff_stats(Sample::file("m", path))));
}

TEST(GeotiffStats, CategoricalShares) {
    test::TempDir dir;
    const Sample s = Sample::file("c", ramp(dir.path() / "c.tif", 4, 1));  // 0 1 2 3
    GeotiffStatsOptions o;
    o.categorical = true;
    o.class_values = {3, 1, 7};
    const auto r = rows(geotiff_stats(s, o));
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0], (std::vector<double>{0.5, 0.5, 0.0}));
    o.class_values = {9};
    EXPECT_TRUE(
        test::contains(test::error_of<SchemaError>([&] { geotiff_stats(s, o); }), "sample 'c'"));
    o.class_values = {1, 1};
    EXPECT_THROW(geotiff_stats(s, o), SchemaError);
    o.class_values = {};
    EXPECT_THROW(geotiff_stats(s, o), SchemaError);
}

TEST(GeotiffStats, TreeWalkKeepsFoldersPaddingAndOrder) {
    test::TempDir dir;
    const auto a = ramp(dir.path() / "a.tif", 3, 3);
    const auto b = ramp(dir.path() / "b.tif", 5, 2);
    Tortilla inner({Sample::file("x", a), Sample::file("y", b)});
    Sample folder = Sample::folder("f", inner);
    folder.set("note", Value(std::string("kept")));
    Sample file = Sample::file("z", b);
    file.set("note", Value(std::string("z")));
    TortillaOptions pad;
    pad.pad_to = 4;
    const Tortilla root({folder, file}, pad);
    GeotiffStatsOptions o;
    o.threads = 2;
    const Tortilla out = with_geotiff_stats(root, o);
    ASSERT_EQ(out.size(), 4u);                                // f, z and two __TACOPAD__
    EXPECT_TRUE(out[0].get(kGeotiffStatsColumn)->is_null());  // a FOLDER beside a FILE
    EXPECT_EQ(out[0].get("note")->as_string(), "kept");
    EXPECT_EQ(rows(*out[1].get(kGeotiffStatsColumn))[0][1], 9);  // max of 0..9
    EXPECT_TRUE(out[2].is_padding() && out[2].get(kGeotiffStatsColumn)->is_null());
    const Tortilla& children = out[0].children();
    EXPECT_EQ(rows(*children[0].get(kGeotiffStatsColumn))[0][1], 8);
    EXPECT_EQ(rows(*children[1].get(kGeotiffStatsColumn))[0][1], 9);
}

TEST(GeotiffStats, ValidPixelCountIsWrittenBesideTheStats) {
    test::TempDir dir;
    // 0..99 with nodata 0: 99 valid pixels; 0..9 without nodata: 10.
    const Sample a = Sample::file("a", ramp(dir.path() / "a.tif", 10, 10, 0));
    const Sample b = Sample::file("b", ramp(dir.path() / "b.tif", 5, 2));
    const GeotiffStatsValues one = geotiff_stats_with_count(a);
    ASSERT_EQ(one.valid_count.type(), DataType::list(DataType::int64()));
    ASSERT_EQ(one.valid_count.as_list().size(), 1u);
    EXPECT_EQ(one.valid_count.as_list()[0].as_int(), 99);
    const Tortilla out = with_geotiff_stats(Tortilla({a, b}));
    EXPECT_EQ(out[0].get(kGeotiffStatsValidCountColumn)->as_list()[0].as_int(), 99);
    EXPECT_EQ(out[1].get(kGeotiffStatsValidCountColumn)->as_list()[0].as_int(), 10);
    const GeotiffStatsResult r = geotiff_stats_many({&a, &b});
    ASSERT_EQ(r.valid_counts.size(), 2u);
    EXPECT_EQ(r.valid_counts[1].as_list()[0].as_int(), 10);
}

TEST(GeotiffStats, UnreadableFileNamesTheSampleOrIsSkipped) {
    test::TempDir dir;
    { std::ofstream(dir.path() / "notes.txt") << "not a raster"; }
    const Sample good = Sample::file("good", ramp(dir.path() / "g.tif", 2, 2));
    const Sample bad = Sample::file("notes", dir.path() / "notes.txt");
    const std::string msg = test::error_of<IoError>([&] { geotiff_stats_many({&good, &bad}); });
    EXPECT_TRUE(test::contains(msg, "sample 'notes'")) << msg;
    EXPECT_TRUE(test::contains(msg, "notes.txt")) << msg;
    GeotiffStatsOptions o;
    o.skip_unreadable = true;
    size_t calls = 0;
    o.progress = [&](size_t, size_t total) {
        ++calls;
        EXPECT_EQ(total, 2u);
    };
    const GeotiffStatsResult r = geotiff_stats_many({&good, &bad}, o);
    EXPECT_EQ(calls, 2u);
    ASSERT_EQ(r.skipped.size(), 1u);
    EXPECT_TRUE(test::contains(r.skipped[0], "sample 'notes'"));
    EXPECT_FALSE(r.values[0].is_null());
    EXPECT_TRUE(r.values[1].is_null());
}

}  // namespace
}  // namespace taco
