// concat(): unions of level views over several datasets (REFERENCE-API §A13): rows in input
// order, paths and bytes from the right file, filters respected down the levels, ids kept
// unique, column modes, and every refusal with its message.
#include <gtest/gtest.h>

#include "reader_test_util.hpp"

using namespace taco;
using namespace taco::test;

namespace {

// Flat samples `prefix0..` whose bytes name their dataset, with the columns of flat_taco and,
// when `extra`, one more (`quality`).
Taco flat_named(const std::string& prefix, size_t n, bool extra = false) {
    std::vector<Sample> samples;
    for (size_t i = 0; i < n; ++i) {
        const std::string id = prefix + std::to_string(i);
        Sample s = Sample::bytes(id, sample_bytes(id));
        s.set("cloud", Value(0.5 * static_cast<double>(i)));
        s.set("label", Value("label_" + std::to_string(i % 3)));
        s.set("count", Value(static_cast<long long>(i * 10)));
        if (extra) s.set("quality", Value(static_cast<long long>(i)));
        samples.push_back(std::move(s));
    }
    return Taco(Tortilla(std::move(samples)), test_collection(prefix + "set"));
}

std::vector<std::string> column_names(const Dataset& ds) {
    std::vector<std::string> out;
    for (const auto& c : ds.columns()) out.push_back(c.name);
    return out;
}

bool has(const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

TEST(ReaderConcat, FlatZipsKeepInputOrderPathsAndBytes) {
    TempDir dir;
    create(flat_named("a", 5), dir / "a.tacozip");
    create(flat_named("b", 3), dir / "b.tacozip");
    const Dataset a = load(dir / "a.tacozip");
    const Dataset b = load(dir / "b.tacozip");
    const Dataset both = concat({a, b});
    EXPECT_EQ(both.path(), "<concatenated>");
    ASSERT_EQ(both.sources().size(), 2u);
    EXPECT_EQ(both.sources()[1], dir / "b.tacozip");
    EXPECT_EQ(both.id(), "aset");  // the first input's metadata
    EXPECT_EQ(both.pit_schema().root_n, 8u);
    EXPECT_NE(both.collection_json().find("\"n\": 8"), std::string::npos);
    EXPECT_EQ(both.count(), 8u);

    const DataFrame df = both.data();
    ASSERT_EQ(df.rows(), 8u);
    const std::string zip_b = fs::canonical(dir / "b.tacozip").string();
    for (int64_t i = 0; i < 8; ++i) {
        const std::string id = i < 5 ? "a" + std::to_string(i) : "b" + std::to_string(i - 5);
        EXPECT_EQ(df.value(i, "id").as_string(), id);
        EXPECT_EQ(df.read_bytes(i), sample_bytes(id));
    }
    const std::string vsi = path_of(df.read("b2"));
    EXPECT_EQ(vsi.substr(0, 12), "/vsisubfile/");
    EXPECT_EQ(vsi.substr(vsi.size() - zip_b.size()), zip_b);
    // data() hides the internal columns but the GDAL path; data_raw() shows where rows came from.
    EXPECT_FALSE(has(df.column_names(), "internal:source_path"));
    const DataFrame raw = both.data_raw();
    EXPECT_EQ(raw.value(7, "internal:source_path").as_string(), zip_b);
    // Ids stay unique across the inputs.
    EXPECT_EQ(raw.value(5, "internal:current_id"), Value(5LL));
}

TEST(ReaderConcat, FiltersOfEachInputApplyAndChainingWorks) {
    TempDir dir;
    create(flat_named("a", 5), dir / "a.tacozip");
    create(flat_named("b", 3), dir / "b.tacozip");
    const Dataset a = load(dir / "a.tacozip").sql("SELECT * FROM data WHERE count >= 20");
    const Dataset both = concat({a, load(dir / "b.tacozip")});
    EXPECT_EQ(both.count(), 6u);
    const DataFrame small = both.sql("SELECT * FROM data WHERE cloud < 0.6").data();
    ASSERT_EQ(small.rows(), 2u);
    EXPECT_EQ(small.value(0, "id").as_string(), "b0");
    EXPECT_EQ(small.read_bytes(1), sample_bytes("b1"));
}

TEST(ReaderConcat, NestedZipsNavigateIntoTheRightArchive) {
    TempDir dir;
    create(deep_taco(3, 4), dir / "one.tacozip");
    create(deep_taco(2, 4), dir / "two.tacozip");  // same padding: the same tree
    const Dataset one = load(dir / "one.tacozip");
    const Dataset two = load(dir / "two.tacozip");
    const Dataset both = concat({one, two});
    EXPECT_EQ(both.level_count(), 3u);
    const DataFrame tiles = both.data();
    ASSERT_EQ(tiles.rows(), 5u);
    // Row 4 is tile_01 of the second file (ids repeat across inputs; position tells them apart).
    const DataFrame bands = frame_of(frame_of(tiles.read(4)).read("sensor_B"));
    EXPECT_EQ(bands.read_bytes("band_G"), sample_bytes("tile_01/sensor_B/band_G"));
    const std::string two_zip = fs::canonical(dir / "two.tacozip").string();
    const std::string vsi = path_of(bands.read("band_G"));
    EXPECT_EQ(vsi.substr(vsi.size() - two_zip.size()), two_zip);
    // Deeper levels are unions too (padding hidden), and ids join across levels.
    EXPECT_EQ(both.level(1).count(), 10u);
    EXPECT_EQ(both.level(2).count(), 30u);
    const Dataset joined = both.sql(
        "SELECT count(*) AS n FROM level1 c JOIN level0 p "
        "ON c.\"internal:parent_id\" = p.\"internal:current_id\" "
        "AND c.\"internal:source_path\" = p.\"internal:source_path\"");
    EXPECT_EQ(joined.data().value(0, "n"), Value(10LL));
    const Dataset by_id_only = both.sql(
        "SELECT count(*) AS n FROM level1 c JOIN level0 p "
        "ON c.\"internal:parent_id\" = p.\"internal:current_id\"");
    EXPECT_EQ(by_id_only.data().value(0, "n"), Value(10LL));
}

TEST(ReaderConcat, AFilteredRootKeepsOnlyItsChildrenBelow) {
    TempDir dir;
    create(deep_taco(3, 0), dir / "one.tacozip");
    create(deep_taco(2, 0), dir / "two.tacozip");
    const Dataset one = load(dir / "one.tacozip").sql("SELECT * FROM data WHERE id = 'tile_02'");
    const Dataset both = concat({one, load(dir / "two.tacozip")});
    EXPECT_EQ(both.count(), 3u);
    EXPECT_EQ(both.level(1).count(), 6u);   // 2 sensors of tile_02 + 4 of the second file
    EXPECT_EQ(both.level(2).count(), 18u);  // 3 bands under each
}

TEST(ReaderConcat, FoldersAndConcatenationsOfConcatenations) {
    TempDir dir;
    create(deep_taco(2, 0), dir / "f1");
    create(deep_taco(1, 0), dir / "f2");
    create(deep_taco(1, 0), dir / "f3");
    const Dataset inner = concat({load(dir / "f1"), load(dir / "f2")});
    const Dataset all = concat({inner, load(dir / "f3")});
    EXPECT_EQ(all.sources().size(), 3u);
    const DataFrame tiles = all.data();
    ASSERT_EQ(tiles.rows(), 4u);
    const std::string f3 = fs::canonical(dir / "f3").string();
    EXPECT_EQ(tiles.value(3, "internal:gdal_vsi").as_string(), f3 + "/DATA/tile_00/__meta__");
    const DataFrame bands = frame_of(frame_of(tiles.read(3)).read("sensor_A"));
    EXPECT_EQ(bands.read_bytes("band_R"), sample_bytes("tile_00/sensor_A/band_R"));
    EXPECT_EQ(all.level(2).count(), 24u);
    const DataFrame leaves =
        all.sql("SELECT * FROM level2 WHERE \"internal:source_path\" = '" + f3 + "'").data();
    ASSERT_EQ(leaves.rows(), 6u);
    EXPECT_EQ(leaves.read_bytes(0), sample_bytes("tile_00/sensor_A/band_R"));
}

TEST(ReaderConcat, ColumnModes) {
    TempDir dir;
    create(flat_named("a", 2), dir / "a.tacozip");
    create(flat_named("b", 2, true), dir / "b.tacozip");
    const std::vector<Dataset> inputs = {load(dir / "a.tacozip"), load(dir / "b.tacozip")};

    EXPECT_FALSE(has(column_names(concat(inputs)), "quality"));
    const Dataset filled = concat(inputs, ColumnMode::FillMissing);
    EXPECT_TRUE(has(column_names(filled), "quality"));
    const DataFrame df = filled.data();
    EXPECT_TRUE(df.value(0, "quality").is_null());
    EXPECT_EQ(df.value(3, "quality"), Value(1LL));

    const std::string strict = error_of<SchemaError>([&] { concat(inputs, ColumnMode::Strict); });
    EXPECT_TRUE(contains(strict, "only in some: quality")) << strict;
    EXPECT_TRUE(contains(strict, "b.tacozip")) << strict;
    EXPECT_EQ(parse_column_mode("fill_missing"), ColumnMode::FillMissing);
    EXPECT_TRUE(
        contains(error_of<QueryError>([] { parse_column_mode("union"); }), "unknown column_mode"));
}

TEST(ReaderConcat, Refusals) {
    TempDir dir;
    create(flat_named("a", 2), dir / "a.tacozip");
    create(flat_named("a", 2), dir / "a_folder");
    create(deep_taco(1, 0), dir / "deep.tacozip");
    const Dataset a = load(dir / "a.tacozip");

    EXPECT_TRUE(contains(error_of<QueryError>([&] { concat({a}); }), "at least 2 datasets, got 1"));
    EXPECT_TRUE(contains(error_of<SchemaError>([&] {
                             concat({a, load(dir / "a_folder")});
                         }),
                         "cannot mix containers"));
    const std::string pit = error_of<SchemaError>([&] { concat({a, load(dir / "deep.tacozip")}); });
    EXPECT_TRUE(contains(pit, "tree structure")) << pit;
    EXPECT_TRUE(contains(pit, "deep.tacozip")) << pit;
    const std::string level = error_of<QueryError>([&] {
        concat({a, load(dir / "deep.tacozip").level(1)});
    });
    EXPECT_TRUE(contains(level, "view of level 1")) << level;
    const std::string critical = error_of<SchemaError>([&] {
        concat({a, a.sql("SELECT id, type, cloud FROM data")});
    });
    EXPECT_TRUE(contains(critical, "no column 'internal:offset'")) << critical;
    EXPECT_TRUE(contains(critical, "sql() projection")) << critical;
    const std::string types = error_of<SchemaError>([&] {
        concat({a, a.sql("SELECT * REPLACE (CAST(count AS VARCHAR) AS count) FROM data")});
    });
    EXPECT_TRUE(contains(types, "column 'count'")) << types;
    EXPECT_TRUE(contains(types, "int64")) << types;
}

// A column that is a number everywhere but of different widths is widened, as DuckDB's UNION
// ALL does in tacoreader's concat: int32 + int64 -> int64, any float -> double.
TEST(ReaderConcat, NumbersOfDifferentWidthsAreWidened) {
    TempDir dir;
    create(flat_named("a", 2), dir / "a.tacozip");
    create(flat_named("b", 2), dir / "b.tacozip");
    const Dataset a = load(dir / "a.tacozip");
    const Dataset b = load(dir / "b.tacozip");
    const Dataset both = concat({a, b.sql("SELECT * REPLACE (CAST(count AS DOUBLE) + 0.5 AS count, "
                                          "CAST(cloud AS FLOAT) AS cloud) FROM data")});
    const DataFrame df = both.data();
    ASSERT_EQ(df.rows(), 4u);
    EXPECT_EQ(df.value(1, "count"), Value(10.0));  // a's int64 read as double
    EXPECT_EQ(df.value(3, "count"), Value(10.5));
    EXPECT_EQ(df.value(3, "cloud"), Value(0.5));  // float widened to double

    const Dataset ints =
        concat({a.sql("SELECT * REPLACE (CAST(count AS INTEGER) AS count) FROM data"), b});
    EXPECT_EQ(ints.data().value(3, "count"), Value(10LL));

    // a string beside a number is still refused, naming each side's own type
    const std::string mixed = error_of<SchemaError>([&] {
        concat({a.sql("SELECT * REPLACE (CAST(count AS INTEGER) AS count) FROM data"), b,
                b.sql("SELECT * REPLACE (CAST(count AS VARCHAR) AS count) FROM data")});
    });
    EXPECT_TRUE(contains(mixed, "is int32 in dataset 0")) << mixed;
    EXPECT_TRUE(contains(mixed, "string in dataset 2")) << mixed;
}

}  // namespace

// An unfiltered input enters the union through its level table, padding rows included: the
// union's own level view must hide them, and the ids after them must still be shifted by the
// whole table's rows, padding counted.
TEST(ReaderConcat, RootPaddingStaysHiddenAndPositionsReachEachInput) {
    TempDir dir;
    for (const char* name : {"one", "two"}) {
        std::vector<Sample> samples;
        for (int i = 0; i < 3; ++i) {
            const std::string id = std::string(name) + "_" + std::to_string(i);
            samples.push_back(Sample::bytes(id, sample_bytes(id)).set("v", Value(int64_t{i})));
        }
        TortillaOptions padded;
        padded.pad_to = 4;  // one __TACOPAD__ row at the end of each root
        create(Taco(Tortilla(std::move(samples), padded), test_collection(name)),
               dir / (std::string(name) + ".tacozip"));
    }
    const Dataset both = concat({load(dir / "one.tacozip"), load(dir / "two.tacozip")});
    EXPECT_EQ(both.count(), 6u);
    const DataFrame rows = both.data();
    ASSERT_EQ(rows.rows(), 6u);
    for (size_t i = 0; i < 6; ++i) {
        const std::string id = std::string(i < 3 ? "one" : "two") + "_" + std::to_string(i % 3);
        EXPECT_EQ(rows.value(i, "id").as_string(), id);
        EXPECT_EQ(rows.read_bytes(i), sample_bytes(id));
    }
    const DataFrame raw = both.data_raw();
    ASSERT_EQ(raw.rows(), 6u);
    EXPECT_EQ(raw.value(3, "internal:current_id"), Value(int64_t{4}));  // after one's 4 rows
}
