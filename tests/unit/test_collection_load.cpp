// Collections in C++: multi-part create, the .tacocat/ and __TACOCAT__ indexes, loading them
// (rows in part order, unique ids, bytes from the right part, concat), and the refusals. The
// reference's own multi-part output is tested in tests/python/test_collections.py.
#include <gtest/gtest.h>

#include "collection/tacocat_file.hpp"
#include "reader_test_util.hpp"
#include "taco/tacocat.hpp"

using namespace taco;
using namespace taco::test;

namespace {

Taco numbered(size_t n) {
    std::vector<Sample> samples;
    for (size_t i = 0; i < n; ++i) {
        const std::string id = "s" + std::to_string(100 + i);
        samples.push_back(Sample::bytes(id, sample_bytes(id)));
    }
    return Taco(Tortilla(std::move(samples)), test_collection("numbered"));
}

CreateOptions split(uint64_t bytes) {
    CreateOptions o;
    o.split_size = bytes;
    return o;
}

TEST(CollectionLoad, SplitCreateLoadsAsOneDatasetInPartOrder) {
    TempDir dir;
    const Taco taco = numbered(10);
    const uint64_t each = sample_bytes("s100").size();
    const CreateResult r = create(taco, dir / "ds.tacozip", split(3 * each));
    ASSERT_EQ(r.parts.size(), 4u);
    EXPECT_EQ(r.parts[3].filename(), "ds_part0004.tacozip");
    EXPECT_EQ(r.index, dir / ".tacocat");
    for (const auto& p : {dir.path(), dir / ".tacocat"}) {
        const Dataset ds = load(p);
        const DataFrame df = ds.data();
        ASSERT_EQ(df.rows(), 10u);
        for (size_t i = 0; i < 10; ++i) {
            const std::string id = "s" + std::to_string(100 + i);
            EXPECT_EQ(df.read_bytes(id), sample_bytes(id));
        }
        EXPECT_EQ(ds.sources().size(), 4u);
        EXPECT_EQ(ds.pit_schema().root_n, 10);
        // Ids are unique across parts and in part order.
        const DataFrame ids =
            ds.sql("SELECT \"internal:current_id\" AS c FROM data ORDER BY c").data();
        for (size_t i = 0; i < 10; ++i) EXPECT_EQ(ids.get_int(i, 0), static_cast<int64_t>(i));
    }
    // concat() of a collection with itself: every row twice, bytes from the right part.
    const Dataset twice = concat({load(dir.path()), load(dir / ".tacocat")});
    EXPECT_EQ(twice.data().rows(), 20u);
    EXPECT_EQ(twice.data().read_bytes(int64_t{17}), sample_bytes("s107"));
}

TEST(CollectionLoad, SingleFileIndexRoundTrips) {
    TempDir dir;
    const CreateResult r = create(numbered(6), dir / "ds.tacozip", split(1));
    ASSERT_EQ(r.parts.size(), 6u);
    fs::create_directories(dir / "file");
    const auto written = create_tacocat(r.parts, dir / "file", TacocatFormat::File);
    EXPECT_EQ(written.filename(), "__TACOCAT__");
    LoadOptions options;
    options.base_path = dir.path().string();
    const Dataset ds = load(written, options);
    EXPECT_EQ(ds.data().rows(), 6u);
    EXPECT_EQ(ds.data().read_bytes("s103"), sample_bytes("s103"));
    // The same index without base_path looks for the parts beside it: it loads without them
    // (every part missing, its rows queryable), and a read names the part.
    const Dataset alone = load(dir / "file");
    EXPECT_EQ(alone.missing_parts().size(), 6u);
    EXPECT_EQ(alone.data().rows(), 6u);
    EXPECT_TRUE(contains(error_of<IoError>([&] { alone.data().read_bytes("s103"); }),
                         "ds_part0004.tacozip' is missing"));
    EXPECT_TRUE(ds.missing_parts().empty());
    EXPECT_TRUE(contains(
        error_of<IoError>([&] { create_tacocat(r.parts, dir / "file", TacocatFormat::File); }),
        "already exists"));
}

TEST(CollectionLoad, TacocatHeaderIsCheckedFieldByField) {
    collection::TacocatHeader h;
    h.levels = {{128, 100}, {228, 50}};
    h.collection = {278, 10};
    auto bytes = collection::encode_tacocat_header(h);
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(bytes.data()), 8),
              std::string("TACOCAT\0", 8));
    const auto back = collection::decode_tacocat_header(bytes.data(), bytes.size(), 288, "x");
    EXPECT_EQ(back.levels, h.levels);
    EXPECT_EQ(back.collection, h.collection);
    EXPECT_TRUE(contains(error_of<FormatError>([&] {
                             collection::decode_tacocat_header(bytes.data(), bytes.size(), 280,
                                                               "x");
                         }),
                         "COLLECTION.json at bytes [278, 288) lies outside"));
    bytes[8] = 2;
    EXPECT_TRUE(contains(error_of<FormatError>([&] {
                             collection::decode_tacocat_header(bytes.data(), bytes.size(), 288,
                                                               "x");
                         }),
                         "version 2"));
}

TEST(CollectionLoad, SizesParseAsTacotoolboxDoes) {
    EXPECT_EQ(parse_size("4GB"), uint64_t{4} << 30);
    EXPECT_EQ(parse_size("512 mb"), uint64_t{512} << 20);
    EXPECT_EQ(parse_size("1.5KiB"), 1536u);
    EXPECT_EQ(parse_size("2048"), 2048u);
    for (const char* bad : {"", "GB", "-1GB", "4XB", "0"})
        EXPECT_TRUE(contains(error_of<SchemaError>([&] { parse_size(bad); }), "invalid size"));
}

}  // namespace
