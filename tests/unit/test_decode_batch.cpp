// Batch decoding into one preallocated buffer (raster::decode_batch_into, what tacocore.torch
// fills a DataLoader batch with) and the multi-part plan a distributed create hands out
// (collection::plan_parts), on the reference GeoTIFFs and on in-memory samples.
#include <gtest/gtest.h>

#include <cstring>

#include "collection/multipart_create.hpp"
#include "raster/decode.hpp"
#include "reader_test_util.hpp"

using namespace taco;
using namespace taco::test;

namespace {

std::string geotiff(const std::string& name) {
    return std::string(TACO_FIXTURES_DIR) + "/tacotoolbox/geotiffs/" + name + ".tif";
}

TEST(DecodeBatch, FillsEverySlotAsDecodeDoes) {
    const std::string a = geotiff("single_band_128x128"), b = geotiff("categorical_128x128");
    const raster::RasterShape shape = raster::probe(a);
    ASSERT_EQ(shape.bands, 1);
    ASSERT_EQ(shape.height, 128);
    ASSERT_EQ(shape.dtype, "float32");
    std::vector<uint8_t> buffer(3 * shape.bytes(), 0xAB);
    const auto failures = raster::decode_batch_into({a, a, a}, shape, buffer.data(), 2);
    EXPECT_TRUE(failures.empty());
    const raster::Raster one = raster::decode(a);
    for (size_t k = 0; k < 3; ++k)
        EXPECT_EQ(std::memcmp(buffer.data() + k * shape.bytes(), one.data.data(), shape.bytes()),
                  0);
    // Another pixel type in the batch is reported, named, and its slot left as it was.
    std::vector<uint8_t> mixed(2 * shape.bytes(), 0xAB);
    const auto wrong = raster::decode_batch_into({a, b}, shape, mixed.data(), 1);
    ASSERT_EQ(wrong.size(), 1u);
    EXPECT_EQ(wrong[0].index, 1u);
    EXPECT_NE(wrong[0].message.find(b), std::string::npos) << wrong[0].message;
    EXPECT_NE(wrong[0].message.find("expected 1x128x128 float32"), std::string::npos)
        << wrong[0].message;
    EXPECT_EQ(mixed[shape.bytes()], 0xAB);
}

TEST(DecodeBatch, EveryUnreadableSampleIsReportedNotJustTheFirst) {
    const std::string a = geotiff("single_band_128x128");
    const raster::RasterShape shape = raster::probe(a);
    std::vector<uint8_t> buffer(4 * shape.bytes());
    const auto failures = raster::decode_batch_into(
        {"/nonexistent/x.tif", a, "/nonexistent/y.tif", a}, shape, buffer.data(), 2);
    ASSERT_EQ(failures.size(), 2u);
    EXPECT_EQ(failures[0].index, 0u);
    EXPECT_EQ(failures[1].index, 2u);
    EXPECT_NE(failures[1].message.find("/nonexistent/y.tif"), std::string::npos);
    EXPECT_THROW(raster::probe("/nonexistent/x.tif"), IoError);
}

TEST(PlanParts, PositionsFollowTheRootAndSkipPadding) {
    std::vector<Sample> samples;
    for (int i = 0; i < 5; ++i) {
        Sample s = Sample::bytes("s" + std::to_string(i), std::string(100, 'x'));
        s.set("region", Value(std::string(i % 2 ? "odd" : "even")));
        samples.push_back(std::move(s));
    }
    TortillaOptions padded;
    padded.pad_to = 4;
    const Taco taco(Tortilla(std::move(samples), padded), test_collection("plan"));
    ASSERT_EQ(taco.root().size(), 8u);
    CreateOptions by_region;
    by_region.group_by = {"region"};
    const auto plan = collection::plan_parts(taco, "out/ds.tacozip", by_region);
    ASSERT_EQ(plan.size(), 2u);
    EXPECT_EQ(plan[0].name, "ds_even.tacozip");
    EXPECT_EQ(plan[0].samples, (std::vector<size_t>{0, 2, 4}));
    EXPECT_EQ(plan[1].samples, (std::vector<size_t>{1, 3}));
    CreateOptions by_size;
    by_size.split_size = 250;
    const auto sized = collection::plan_parts(taco, "out/ds.tacozip", by_size);
    ASSERT_EQ(sized.size(), 3u);
    EXPECT_EQ(sized[2].name, "ds_part0003.tacozip");
    EXPECT_EQ(sized[2].samples, (std::vector<size_t>{4}));
    EXPECT_THROW(collection::plan_parts(taco, "out/ds", by_size), SchemaError);
}

}  // namespace
