// DataFrame: typed cells, `read` navigation to any depth, exact gdal_vsi strings (REFERENCE-API
// §A10), raw bytes, and the navigation errors.
#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <thread>

#include "query/dataframe_impl.hpp"
#include "reader_test_util.hpp"

using namespace taco;
using namespace taco::test;

namespace {

TEST(ReaderDataFrame, TypedCellsOfTheFlatFixture) {
    const DataFrame df = load(kFlatZip).data();
    ASSERT_EQ(df.rows(), 5u);
    const size_t id = *df.column_index("id"), cloud = *df.column_index("cloud_cover"),
                 time = *df.column_index("istac:time_start"),
                 shape = *df.column_index("stac:tensor_shape"),
                 stats = *df.column_index("geotiff:stats"),
                 geom = *df.column_index("istac:geometry");
    EXPECT_EQ(df.get_string(1, id), "sample_1");
    EXPECT_DOUBLE_EQ(df.get_double(1, cloud), 15.0);
    EXPECT_EQ(df.schema()[time].type, DataType::timestamp());
    EXPECT_EQ(df.get_int(0, time), 1672531200000000);  // 2023-01-01
    EXPECT_EQ(df.value(0, shape), Value::list({Value(3), Value(256), Value(256)}));
    EXPECT_EQ(df.schema()[stats].type, DataType::list(DataType::list(DataType::float32())));
    EXPECT_EQ(df.value(0, stats).as_list().size(), 3u);
    EXPECT_EQ(df.schema()[geom].type, DataType::binary());
    EXPECT_EQ(df.get_string(0, geom).size(), 93u);
    EXPECT_EQ(df.value(2, "location"), Value("nyc"));
    EXPECT_THROW(df.get_int(0, id), SchemaError);
    EXPECT_THROW(df.value(5, 0), std::out_of_range);
    EXPECT_THROW(df.value(0, "nope"), std::out_of_range);
}

TEST(ReaderDataFrame, ZipGdalPathsAndBytes) {
    const DataFrame df = load(kFlatZip).data();
    const std::string zip = fs::canonical(kFlatZip).string();
    const uint64_t offsets[] = {200, 259, 315, 369, 425}, sizes[] = {16, 13, 11, 13, 12};
    for (int64_t i = 0; i < 5; ++i) {
        EXPECT_EQ(path_of(df.read(i)), "/vsisubfile/" + std::to_string(offsets[i]) + "_" +
                                           std::to_string(sizes[i]) + "," + zip);
        const std::string id = "sample_" + std::to_string(i);
        EXPECT_EQ(df.read_bytes(i), slurp(kFlatFolder + "/DATA/" + id));
        EXPECT_EQ(df.read_bytes(id), df.read_bytes(i));
        EXPECT_EQ(df.byte_size(i), sizes[i]);
    }
    EXPECT_EQ(path_of(df.read("sample_3")), path_of(df.read(3)));
}

TEST(ReaderDataFrame, FolderGdalPathsMatchTheReference) {
    const std::string root = fs::canonical(kNestedFolder).string();
    const DataFrame top = load(kNestedFolder).data();
    // Level 0 FOLDER rows point at their __meta__, children read from it at <dir>/<id>.
    EXPECT_EQ(top.get_string(0, *top.column_index("internal:gdal_vsi")),
              root + "/DATA/europe/__meta__");
    const DataFrame europe = frame_of(top.read("europe"));
    EXPECT_EQ(europe.level(), 1u);
    EXPECT_EQ(path_of(europe.read(0)), root + "/DATA/europe/item_0");
    EXPECT_EQ(europe.read_bytes("item_2"), slurp(kNestedFolder + "/DATA/europe/item_2"));
    // The level-1 view builds paths from internal:relative_path.
    const DataFrame level1 = load(kNestedFolder).level(1).data();
    EXPECT_EQ(level1.level(), 1u);
    EXPECT_EQ(path_of(level1.read(4)), root + "/DATA/americas/item_1");
}

TEST(ReaderDataFrame, NestedZipNavigationReturnsTheRightBytesDespiteTheLevel1Defect) {
    const DataFrame top = load(kNestedZip).data();
    for (const char* region : {"europe", "americas", "asia"}) {
        const DataFrame children = frame_of(top.read(region));
        ASSERT_EQ(children.rows(), 3u);
        for (int64_t i = 0; i < 3; ++i) {
            const std::string expected =
                slurp(kNestedFolder + "/DATA/" + region + "/item_" + std::to_string(i));
            EXPECT_EQ(children.read_bytes(i), expected) << region << "/item_" << i;
            EXPECT_EQ(children.read_bytes(i),
                      "data_" + std::string(region) + "_" + std::to_string(i));
        }
    }
}

TEST(ReaderDataFrame, NavigatesToAnyDepthWithPaddingHidden) {
    TempDir dir;
    const Taco taco = deep_taco(3, 4);
    for (const char* name : {"deep.tacozip", "deep_folder"}) {
        SCOPED_TRACE(name);
        create(taco, dir / name);
        const DataFrame tiles = load(dir / name).data();
        EXPECT_EQ(tiles.rows(), 3u);
        const DataFrame sensors = frame_of(tiles.read("tile_01"));
        EXPECT_EQ(sensors.rows(), 2u);  // + 2 padding rows in the __meta__, hidden
        EXPECT_EQ(sensors.level(), 1u);
        const DataFrame bands = frame_of(sensors.read("sensor_B"));
        EXPECT_EQ(bands.rows(), 3u);
        EXPECT_EQ(bands.level(), 2u);
        EXPECT_EQ(bands.read_bytes("band_G"), sample_bytes("tile_01/sensor_B/band_G"));
        EXPECT_EQ(bands.value(2, "wavelength"), Value(static_cast<long long>('B')));
        // The same sample through the level-2 view.
        const Dataset ds = load(dir / name);
        const DataFrame row = ds.sql(
                                    "SELECT * FROM level2 WHERE \"internal:relative_path\" = "
                                    "'tile_01/sensor_B/band_G'")
                                  .data();
        ASSERT_EQ(row.rows(), 1u);
        EXPECT_EQ(row.read_bytes(0), sample_bytes("tile_01/sensor_B/band_G"));
    }
}

// data() of a base level builds gdal_vsi in C++, chunk by chunk on two threads, with the padding
// rows dropped; the SQL view builds the same column with DuckDB expressions. Enough rows for many
// chunks, and padding that ends in the middle of one.
TEST(ReaderDataFrame, ComputedGdalPathsMatchTheSqlViewOnManyChunks) {
    TempDir dir;
    std::vector<Sample> samples;
    const size_t n = 20'001;
    for (size_t i = 0; i < n; ++i) {
        const std::string id = "s" + std::to_string(i);
        samples.push_back(Sample::bytes(id, i % 7 == 0 ? "" : sample_bytes(id)));
    }
    TortillaOptions opts;
    opts.pad_to = 4096;  // 20,480 rows stored, 479 of them padding
    const Taco taco(Tortilla(std::move(samples), opts), test_collection());
    for (const char* name : {"many.tacozip", "many_folder"}) {
        SCOPED_TRACE(name);
        create(taco, dir / name);
        const Dataset ds = load(dir / name);
        const DataFrame computed = ds.data();
        const DataFrame viewed = ds.sql("SELECT id, \"internal:gdal_vsi\" FROM data").data();
        ASSERT_EQ(computed.rows(), n);
        ASSERT_EQ(viewed.rows(), n);
        for (size_t i = 0; i < n; ++i) {
            ASSERT_EQ(computed.value(i, "id"), viewed.value(i, "id")) << "row " << i;
            ASSERT_EQ(computed.value(i, "internal:gdal_vsi"), viewed.value(i, "internal:gdal_vsi"))
                << "row " << i;
        }
        for (size_t i : {size_t{0}, size_t{1}, size_t{4095}, size_t{4096}, n - 1}) {
            const std::string id = "s" + std::to_string(i);
            EXPECT_EQ(computed.read_bytes(static_cast<int64_t>(i)),
                      i % 7 == 0 ? "" : sample_bytes(id));
        }
    }
}

// data() makes each chunk's paths when a cell of it is first read: threads reading the same
// rows at once must all see complete, correct paths.
TEST(ReaderDataFrame, PathsMadeOnFirstReadAreRightFromManyThreads) {
    TempDir dir;
    create(flat_taco(9'000), dir / "flat.tacozip");
    const Dataset ds = load(dir / "flat.tacozip");
    const DataFrame expected = ds.sql("SELECT \"internal:gdal_vsi\" FROM data").data();
    const DataFrame df = ds.data();
    std::vector<std::thread> threads;
    std::atomic<size_t> mismatches{0};
    for (size_t t = 0; t < 4; ++t) {
        threads.emplace_back([&, t] {
            for (size_t k = 0; k < df.rows(); ++k) {
                const size_t i = t % 2 ? df.rows() - 1 - k : k;
                if (df.value(i, "internal:gdal_vsi") != expected.value(i, "internal:gdal_vsi"))
                    ++mismatches;
            }
        });
    }
    for (auto& th : threads) th.join();
    EXPECT_EQ(mismatches.load(), 0u);
}

TEST(ReaderDataFrame, FolderChildrenAreReadOnceAndShared) {
    const DataFrame top = load(kNestedZip).data();
    const DataFrame a = frame_of(top.read("asia"));
    const DataFrame b = frame_of(top.read(2));
    EXPECT_EQ(a.impl().table.get(), b.impl().table.get());
    EXPECT_EQ(a.read_bytes("item_0"), b.read_bytes("item_0"));
}

// read()'s before_blocking is what lets the Python bindings keep the GIL for reads answered from
// memory: it must come before every wait (a FOLDER's __meta__, a FOLDER dataset's file checks,
// the id index's build), once, and never for a ZIP member, whose path is text.
TEST(ReaderDataFrame, ReadSaysBeforeItBlocksAndOnlyThen) {
    int calls = 0;
    const std::function<void()> count = [&calls] { ++calls; };
    const DataFrame flat = load(kFlatZip).data();
    EXPECT_EQ(path_of(flat.read(int64_t{1}, count)), path_of(flat.read(1)));
    EXPECT_EQ(calls, 0);
    EXPECT_EQ(path_of(flat.read("sample_3", count)), path_of(flat.read(3)));
    EXPECT_EQ(calls, 1);  // the first lookup by id built the index
    flat.read("sample_4", count);
    EXPECT_EQ(calls, 1);  // ... and only the first
    EXPECT_THROW(flat.read(int64_t{9}, count), NavigationError);
    EXPECT_EQ(calls, 1);  // errors found in memory do not wait either

    const DataFrame top = load(kNestedZip).data();
    calls = 0;
    const DataFrame asia = frame_of(top.read("asia", count));
    EXPECT_EQ(calls, 2);  // index, then the FOLDER's children (once each)
    calls = 0;
    asia.read(int64_t{0}, count);
    EXPECT_EQ(calls, 0);  // a FILE inside a ZIP

    const DataFrame folder = load(kFlatFolder).data();
    calls = 0;
    EXPECT_EQ(path_of(folder.read(int64_t{0}, count)), path_of(folder.read(0)));
    EXPECT_EQ(calls, 1);  // a FOLDER dataset's file is checked on disk (symbolic links)
}

TEST(ReaderDataFrame, FilePathInMemoryIsReadWithoutTheCopyAndOnlyWhereReadWouldNotWait) {
    const DataFrame flat = load(kFlatZip).data();
    const std::optional<std::string_view> one = flat.file_path_in_memory(int64_t{1});
    ASSERT_TRUE(one.has_value());
    EXPECT_EQ(std::string(*one), path_of(flat.read(1)));
    EXPECT_EQ(one->data(), flat.file_path_in_memory(int64_t{1})->data());  // a view, not a copy
    EXPECT_FALSE(flat.file_path_in_memory("sample_3"));  // the first id lookup builds the index
    flat.read("sample_3");
    EXPECT_EQ(std::string(*flat.file_path_in_memory("sample_3")), path_of(flat.read(3)));
    EXPECT_THROW(flat.file_path_in_memory(int64_t{9}), NavigationError);  // as read() throws
    EXPECT_THROW(flat.file_path_in_memory("nope"), NavigationError);

    const DataFrame top = load(kNestedZip).data();
    EXPECT_FALSE(top.file_path_in_memory(int64_t{0}));  // a FOLDER: read() makes its children
    const DataFrame folder = load(kFlatFolder).data();
    EXPECT_FALSE(folder.file_path_in_memory(int64_t{0}));  // checked on disk by read()
}

TEST(ReaderDataFrame, NavigationErrors) {
    const DataFrame df = load(kFlatZip).data();
    std::string msg = error_of<NavigationError>([&] { df.read(5); });
    EXPECT_TRUE(contains(msg, "Position 5 out of range [0, 4]")) << msg;
    msg = error_of<NavigationError>([&] { df.read(-1); });
    EXPECT_TRUE(contains(msg, "out of range [0, 4]")) << msg;
    EXPECT_TRUE(contains(msg, "negative")) << msg;
    msg = error_of<NavigationError>([&] { df.read("sample_9"); });
    EXPECT_TRUE(contains(msg, "ID 'sample_9' not found")) << msg;
    EXPECT_TRUE(contains(error_of<NavigationError>([&] { df.read_bytes(17); }), "out of range"));

    const DataFrame top = load(kNestedZip).data();
    msg = error_of<NavigationError>([&] { top.read_bytes("europe"); });
    EXPECT_TRUE(contains(msg, "'europe' is a FOLDER")) << msg;

    const DataFrame no_vsi = load(kFlatZip).sql("SELECT id, type FROM data").data();
    msg = error_of<NavigationError>([&] { no_vsi.read(0); });
    EXPECT_TRUE(contains(msg, "internal:gdal_vsi")) << msg;
    const DataFrame no_id =
        load(kFlatZip).sql("SELECT type, \"internal:gdal_vsi\" FROM data").data();
    EXPECT_TRUE(contains(error_of<NavigationError>([&] { no_id.read("sample_0"); }),
                         "no string column 'id'"));
    EXPECT_NO_THROW(no_id.read(0));

    const DataFrame empty = load(kFlatZip).sql("SELECT * FROM data WHERE false").data();
    EXPECT_TRUE(contains(error_of<NavigationError>([&] { empty.read(0); }), "empty"));
    EXPECT_TRUE(contains(error_of<NavigationError>([&] { DataFrame().read(0); }), "empty"));
}

TEST(ReaderDataFrame, FirstRowWinsForRepeatedIds) {
    const DataFrame df =
        load(kFlatZip).sql("SELECT * FROM data UNION ALL SELECT * FROM data").data();
    ASSERT_EQ(df.rows(), 10u);
    EXPECT_EQ(df.position_of("sample_4"), 4u);
}

TEST(ReaderDataFrame, StreamsBytesInPieces) {
    TempDir dir;
    std::vector<Sample> samples;
    std::string big(1'000'003, '\0');
    for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>(i * 7);
    samples.push_back(Sample::bytes("big", big));
    create(Taco(Tortilla(std::move(samples)), test_collection()), dir / "big.tacozip");
    const DataFrame df = load(dir / "big.tacozip").data();
    std::string got;
    size_t pieces = 0;
    EXPECT_EQ(df.stream_bytes(
                  0, [&](std::string_view p) { got += p, ++pieces; }, 4096),
              big.size());
    EXPECT_EQ(got, big);
    EXPECT_EQ(pieces, (big.size() + 4095) / 4096);
    EXPECT_EQ(df.read_bytes("big"), big);
}

TEST(ReaderDataFrame, ZeroByteSamplesAndDataFramesOutliveTheirDataset) {
    TempDir dir;
    std::vector<Sample> samples;
    samples.push_back(Sample::bytes("empty", ""));
    samples.push_back(Sample::bytes("full", "abc"));
    create(Taco(Tortilla(std::move(samples)), test_collection()), dir / "z.tacozip");
    DataFrame df;
    {
        const Dataset ds = load(dir / "z.tacozip");
        df = ds.data();
    }
    EXPECT_EQ(df.read_bytes("empty"), "");
    EXPECT_EQ(df.byte_size("empty"), 0u);
    EXPECT_EQ(df.read_bytes("full"), "abc");
    EXPECT_EQ(df.format(), ContainerFormat::Zip);
}

TEST(ReaderDataFrame, DamagedMetaIsReportedWithTheFolder) {
    TempDir dir;
    const fs::path copy = copy_fixture(kNestedFolder, dir);
    spit(copy / "DATA" / "asia" / "__meta__", "garbage");
    fs::remove(copy / "DATA" / "americas" / "__meta__");
    const DataFrame top = load(copy).data();
    std::string msg = error_of<FormatError>([&] { top.read("asia"); });
    EXPECT_TRUE(contains(msg, "__meta__ of FOLDER 'asia'")) << msg;
    msg = error_of<FormatError>([&] { top.read("americas"); });
    EXPECT_TRUE(contains(msg, "FOLDER sample 'americas' has no __meta__")) << msg;
    EXPECT_EQ(frame_of(top.read("europe")).rows(), 3u);
}

TEST(ReaderDataFrame, GdalPathBeyondTheEndOfTheFile) {
    const std::string zip = fs::canonical(kFlatZip).string();
    const DataFrame df = load(kFlatZip)
                             .sql("SELECT id, type, '/vsisubfile/9000_500,' || '" + zip +
                                  "' AS \"internal:gdal_vsi\" FROM data")
                             .data();
    const std::string msg = error_of<FormatError>([&] { df.read_bytes(0); });
    EXPECT_TRUE(
        contains(msg, "sample 'sample_0' at bytes [9000, 9500) lies outside the file (9193 bytes)"))
        << msg;
    const DataFrame bad =
        load(kFlatZip)
            .sql("SELECT id, type, '/vsisubfile/12,x' AS \"internal:gdal_vsi\" FROM data")
            .data();
    EXPECT_TRUE(contains(error_of<FormatError>([&] { bad.read_bytes(0); }), "invalid GDAL path"));
}

}  // namespace
