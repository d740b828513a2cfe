// taco::load: container detection, the reference fixtures (both provider shapes, taco_version
// 0.5.0), collection accessors, and every load error path with its message.
#include <gtest/gtest.h>

#include "reader_test_util.hpp"

using namespace taco;
using namespace taco::test;

namespace {

TEST(ReaderLoad, LoadsEveryReferenceFixture) {
    for (const auto& path : all_fixtures()) {
        SCOPED_TRACE(path);
        const Dataset ds = load(path);
        EXPECT_FALSE(ds.id().empty());
        EXPECT_EQ(ds.taco_version(), "0.5.0");
        EXPECT_GE(ds.level_count(), 1u);
        EXPECT_GT(ds.data().rows(), 0u);
    }
}

TEST(ReaderLoad, DetectsTheContainer) {
    EXPECT_EQ(load(kFlatZip).format(), ContainerFormat::Zip);
    EXPECT_EQ(load(kFlatFolder).format(), ContainerFormat::Folder);
    EXPECT_EQ(load(kFlatFolder + "/").format(), ContainerFormat::Folder);
}

TEST(ReaderLoad, CollectionAccessorsOfTheFlatFixture) {
    const Dataset ds = load(kFlatZip);
    EXPECT_EQ(ds.id(), "test_dataset");
    EXPECT_EQ(ds.version(), "1.0.0");
    EXPECT_EQ(ds.description(), "Test fixture with STAC metadata");
    EXPECT_EQ(ds.tasks(), std::vector<std::string>{"classification"});
    EXPECT_EQ(ds.licenses(), std::vector<std::string>{"CC-BY-4.0"});
    ASSERT_TRUE(ds.extent().has_value());
    EXPECT_DOUBLE_EQ(ds.extent()->spatial[0], -77.0);
    EXPECT_DOUBLE_EQ(ds.extent()->spatial[3], 48.85);
    ASSERT_TRUE(ds.extent()->temporal.has_value());
    EXPECT_EQ((*ds.extent()->temporal)[0], "2023-01-01T00:00:00Z");
    EXPECT_FALSE(ds.title().has_value());
    // tacoreader fixtures use the old {name, organization, email, role} provider shape.
    ASSERT_EQ(ds.providers().size(), 1u);
    EXPECT_FALSE(ds.providers()[0].uses_provider_shape());
    EXPECT_EQ(ds.pit_schema().root_n, 5u);
    EXPECT_EQ(ds.pit_schema().root_type, "FILE");
    EXPECT_EQ(ds.pit_schema().max_depth(), 0u);
    ASSERT_EQ(ds.field_schema().size(), 1u);
    EXPECT_EQ(ds.field_schema()[0].level, "level0");
    EXPECT_EQ(ds.field_schema()[0].fields[0].name, "id");
    EXPECT_EQ(ds.field_schema()[0].fields[0].type, "string");
    EXPECT_EQ(ds.collection_json(), slurp(kFlatFolder + "/COLLECTION.json"));
}

TEST(ReaderLoad, AcceptsTheNewProviderShape) {
    const Dataset ds = load(kSimpleZip);
    ASSERT_FALSE(ds.providers().empty());
    EXPECT_TRUE(ds.providers()[0].uses_provider_shape());
    ASSERT_TRUE(ds.extent().has_value());
    EXPECT_FALSE(ds.extent()->temporal.has_value());  // no STAC columns: global, temporal null
}

TEST(ReaderLoad, PitSchemaOfTheNestedFixture) {
    const Dataset ds = load(kNestedZip);
    const PitSchema& pit = ds.pit_schema();
    EXPECT_EQ(pit.root_type, "FOLDER");
    EXPECT_EQ(pit.root_n, 3u);
    ASSERT_EQ(pit.max_depth(), 1u);
    ASSERT_EQ(pit.hierarchy[0].size(), 1u);
    EXPECT_EQ(pit.hierarchy[0][0].n, 9u);
    EXPECT_EQ(pit.hierarchy[0][0].ids, (std::vector<std::string>{"item_0", "item_1", "item_2"}));
    EXPECT_EQ(ds.level_count(), 2u);
}

TEST(ReaderLoad, ReadsOwnDatasetsInBothContainers) {
    TempDir dir;
    const Taco taco = deep_taco(3, 0);
    for (const char* name : {"deep.tacozip", "deep_folder"}) {
        SCOPED_TRACE(name);
        create(taco, dir / name);
        const Dataset ds = load(dir / name);
        EXPECT_EQ(ds.id(), "deep_test");
        EXPECT_EQ(ds.taco_version(), "2.0.0");
        EXPECT_EQ(ds.level_count(), 3u);
        EXPECT_EQ(ds.level(2).count(), 18u);
        EXPECT_EQ(ds.pit_schema().max_depth(), 2u);
    }
}

// --- format detection errors -------------------------------------------------------------------

TEST(ReaderLoad, MissingPathIsAnIoErrorNamingIt) {
    EXPECT_TRUE(contains(error_of<IoError>([] { load("/nonexistent/x.tacozip"); }),
                         "/nonexistent/x.tacozip"));
    EXPECT_TRUE(contains(error_of<IoError>([] { load("/nonexistent/dir"); }), "/nonexistent/dir"));
}

TEST(ReaderLoad, DamagedLegacyFilesAreNamed) {
    // v1 files load (src/legacy/, tests/legacy with files from the legacy writers); these are
    // too short to hold a v1 header.
    TempDir dir;
    spit(dir / "old.taco", "WX0000");
    spit(dir / "old.tortilla", "#y0000");
    for (const char* name : {"old.taco", "old.tortilla"}) {
        const std::string msg = error_of<FormatError>([&] { load(dir / name); });
        EXPECT_TRUE(contains(msg, "truncated: a legacy v1 file")) << msg;
        EXPECT_TRUE(contains(msg, "200-byte header")) << msg;
        EXPECT_TRUE(contains(msg, name)) << msg;
    }
    // Same magic under another name: recognised by content (a zeroed header: no FOOTER).
    spit(dir / "renamed.bin", "#y" + std::string(200, '\0'));
    EXPECT_TRUE(contains(error_of<FormatError>([&] { load(dir / "renamed.bin"); }),
                         "renamed.bin: corrupt header: the data partition count"));
    EXPECT_TRUE(
        contains(error_of<FormatError>([] { load("tacofoundation:sen2venus"); }), "legacy"));
}

// Collection indexes are recognised in every layout; a broken one is named (the loading itself
// is tested in test_collection_load.cpp and tests/python/test_collections.py).
TEST(ReaderLoad, BrokenTacocatLayoutsAreNamed) {
    TempDir dir;
    fs::create_directories(dir / "parts" / ".tacocat");
    spit(dir / "parts" / ".tacocat" / "COLLECTION.json", "{}");
    for (const fs::path& p : {dir / "parts", dir / "parts" / ".tacocat"}) {
        const std::string msg = error_of<FormatError>([&] { load(p); });
        EXPECT_TRUE(contains(msg, ".tacocat/COLLECTION.json")) << msg;
    }
    fs::create_directories(dir / "legacy");
    spit(dir / "legacy" / "__TACOCAT__", "TACOCAT");
    EXPECT_TRUE(contains(error_of<FormatError>([&] { load(dir / "legacy"); }), "__TACOCAT__"));
    EXPECT_TRUE(contains(error_of<FormatError>([&] { load(dir / "legacy" / "__TACOCAT__"); }),
                         "__TACOCAT__"));
}

TEST(ReaderLoad, DirectoryWithoutCollectionSaysWhatIsMissing) {
    TempDir dir;
    fs::create_directories(dir / "empty");
    const std::string msg = error_of<FormatError>([&] { load(dir / "empty"); });
    EXPECT_TRUE(contains(msg, "COLLECTION.json not found")) << msg;
    EXPECT_TRUE(contains(msg, (dir / "empty").string())) << msg;
}

TEST(ReaderLoad, ZipUnderAnotherNameIsDetectedByContent) {
    TempDir dir;
    fs::copy_file(kFlatZip, dir / "flat.bin");
    const Dataset ds = load(dir / "flat.bin");
    EXPECT_EQ(ds.format(), ContainerFormat::Zip);
    EXPECT_EQ(ds.data().rows(), 5u);
    spit(dir / "random.bin", "hello");
    EXPECT_TRUE(
        contains(error_of<FormatError>([&] { load(dir / "random.bin"); }), "not a TACO dataset"));
}

// --- ZIP error paths -----------------------------------------------------------------------------

TEST(ReaderLoad, BadHeaderSignature) {
    TempDir dir;
    std::string bytes = slurp(kFlatZip);
    bytes[0] = 'X';
    spit(dir / "bad.tacozip", bytes);
    const std::string msg = error_of<FormatError>([&] { load(dir / "bad.tacozip"); });
    EXPECT_TRUE(contains(msg, "TACO_HEADER")) << msg;
    EXPECT_TRUE(contains(msg, "signature")) << msg;
    EXPECT_TRUE(contains(msg, "bad.tacozip")) << msg;
}

TEST(ReaderLoad, BadHeaderEntryName) {
    TempDir dir;
    std::string bytes = slurp(kFlatZip);
    bytes[30] = 'X';
    spit(dir / "bad.tacozip", bytes);
    EXPECT_TRUE(contains(error_of<FormatError>([&] { load(dir / "bad.tacozip"); }),
                         "expected 'TACO_HEADER'"));
}

TEST(ReaderLoad, UnfinishedHeaderWithNoSlots) {
    TempDir dir;
    std::string bytes = slurp(kFlatZip);
    for (size_t i = 41; i < 157; ++i) bytes[i] = 0;
    spit(dir / "empty_header.tacozip", bytes);
    const std::string msg = error_of<FormatError>([&] { load(dir / "empty_header.tacozip"); });
    EXPECT_TRUE(contains(msg, "lists 0 entries")) << msg;
}

TEST(ReaderLoad, TruncatedFile) {
    TempDir dir;
    const std::string bytes = slurp(kFlatZip);
    spit(dir / "cut.tacozip", bytes.substr(0, 3000));  // level0 (490 + 5703) is cut short
    const std::string msg = error_of<FormatError>([&] { load(dir / "cut.tacozip"); });
    EXPECT_TRUE(contains(msg, "METADATA/level0.parquet")) << msg;
    EXPECT_TRUE(contains(msg, "3000 bytes")) << msg;
    spit(dir / "tiny.tacozip", bytes.substr(0, 100));
    EXPECT_TRUE(contains(error_of<FormatError>([&] { load(dir / "tiny.tacozip"); }), "100 bytes"));
}

TEST(ReaderLoad, OffsetsOutsideTheFile) {
    TempDir dir;
    std::string bytes = slurp(kFlatZip);
    put_le(bytes, 45 + 16, 1'000'000, 8);  // slot 1 (COLLECTION.json) offset
    spit(dir / "far.tacozip", bytes);
    const std::string msg = error_of<FormatError>([&] { load(dir / "far.tacozip"); });
    EXPECT_TRUE(contains(msg, "slot 1 (COLLECTION.json)")) << msg;
    EXPECT_TRUE(contains(msg, "[1000000, 1002451)")) << msg;
}

TEST(ReaderLoad, SlotPointingAtNonParquetBytes) {
    TempDir dir;
    std::string bytes = slurp(kFlatZip);
    put_le(bytes, 45, 200, 8);  // level0 offset -> sample data
    spit(dir / "wrong.tacozip", bytes);
    const std::string msg = error_of<FormatError>([&] { load(dir / "wrong.tacozip"); });
    EXPECT_TRUE(contains(msg, "METADATA/level0.parquet")) << msg;
    EXPECT_TRUE(contains(msg, "not a Parquet file")) << msg;
}

// Rewrites COLLECTION.json of a copy of flat.tacozip in place (same length, padded with spaces).
fs::path zip_with_collection(const TempDir& dir, const std::string& text) {
    std::string bytes = slurp(kFlatZip);
    const size_t offset = 6238, size = 2451;
    EXPECT_LE(text.size(), size);
    bytes.replace(offset, size, text + std::string(size - text.size(), ' '));
    spit(dir / "c.tacozip", bytes);
    return dir / "c.tacozip";
}

TEST(ReaderLoad, MalformedCollectionJsonInZip) {
    TempDir dir;
    const fs::path p = zip_with_collection(dir, "{\"id\": \"x\",\n \"taco:pit_schema\": {");
    const std::string msg = error_of<FormatError>([&] { load(p); });
    EXPECT_TRUE(contains(msg, "COLLECTION.json")) << msg;
    EXPECT_TRUE(contains(msg, "malformed JSON")) << msg;
    EXPECT_TRUE(contains(msg, "line 2")) << msg;
}

TEST(ReaderLoad, CollectionWithoutIdOrPitSchema) {
    TempDir dir;
    EXPECT_TRUE(
        contains(error_of<FormatError>([&] {
                     load(zip_with_collection(
                         dir, R"({"taco:pit_schema": {"root": {"n": 5, "type": "FILE"}}})"));
                 }),
                 "required key 'id' is missing"));
    EXPECT_TRUE(
        contains(error_of<FormatError>([&] { load(zip_with_collection(dir, R"({"id": "x"})")); }),
                 "'taco:pit_schema' is missing"));
}

TEST(ReaderLoad, InvalidPitSchemaIsASchemaError) {
    TempDir dir;
    const std::string msg = error_of<SchemaError>([&] {
        load(zip_with_collection(
            dir,
            R"({"id": "x", "taco:pit_schema": {"root": {"n": 5, "type": "FILE"}, "hierarchy": {"1": [{"n": 1, "type": ["FILE"], "id": ["a", "b"]}]}}})"));
    });
    EXPECT_TRUE(contains(msg, "1 types but 2 ids")) << msg;
    const std::string bad_root = error_of<SchemaError>([&] {
        load(zip_with_collection(
            dir, R"({"id": "x", "taco:pit_schema": {"root": {"n": 5, "type": "BLOB"}}})"));
    });
    EXPECT_TRUE(contains(bad_root, "root.type")) << bad_root;
}

TEST(ReaderLoad, CollectionWithoutDatasetVersionReportsUnknown) {
    TempDir dir;
    const Dataset ds = load(zip_with_collection(
        dir, R"({"id": "x", "taco:pit_schema": {"root": {"n": 5, "type": "FILE"}}})"));
    EXPECT_EQ(ds.version(), "unknown");
    EXPECT_EQ(ds.id(), "x");
    EXPECT_TRUE(ds.field_schema().empty());
}

// --- FOLDER error paths --------------------------------------------------------------------------

TEST(ReaderLoad, FolderErrors) {
    TempDir dir;
    const fs::path copy = copy_fixture(kFlatFolder, dir);
    spit(copy / "COLLECTION.json", "{\"id\": ");
    std::string msg = error_of<FormatError>([&] { load(copy); });
    EXPECT_TRUE(contains(msg, "malformed JSON")) << msg;
    EXPECT_TRUE(contains(msg, "COLLECTION.json")) << msg;

    fs::copy_file(kFlatFolder + "/COLLECTION.json", copy / "COLLECTION.json",
                  fs::copy_options::overwrite_existing);
    fs::remove(copy / "METADATA" / "level0.parquet");
    msg = error_of<FormatError>([&] { load(copy); });
    EXPECT_TRUE(contains(msg, "METADATA/level0.parquet not found")) << msg;

    fs::remove_all(copy / "METADATA");
    msg = error_of<FormatError>([&] { load(copy); });
    EXPECT_TRUE(contains(msg, "METADATA directory not found")) << msg;
}

TEST(ReaderLoad, FolderLevelThatIsNotParquet) {
    TempDir dir;
    const fs::path copy = copy_fixture(kFlatFolder, dir);
    spit(copy / "METADATA" / "level0.parquet", "this is not parquet at all");
    const std::string msg = error_of<FormatError>([&] { load(copy); });
    EXPECT_TRUE(contains(msg, "METADATA/level0.parquet")) << msg;
    EXPECT_TRUE(contains(msg, "not a Parquet file")) << msg;
}

TEST(ReaderLoad, LevelWithoutRequiredColumn) {
    TempDir dir;
    const fs::path copy = copy_fixture(kNestedFolder, dir);
    const fs::path level1 = copy / "METADATA" / "level1.parquet";
    duck("COPY (SELECT * EXCLUDE (\"internal:relative_path\") FROM read_parquet('" +
         (kNestedFolder + "/METADATA/level1.parquet") + "')) TO '" + level1.string() +
         "' (FORMAT parquet)");
    const std::string msg = error_of<FormatError>([&] { load(copy); });
    EXPECT_TRUE(contains(msg, "METADATA/level1.parquet has no column 'internal:relative_path'"))
        << msg;
}

// --- what older or other writers produce --------------------------------------------------------

TEST(ReaderLoad, AcceptsTablesWithoutCurrentIdAndWithExtraColumns) {
    TempDir dir;
    const fs::path copy = copy_fixture(kNestedFolder, dir);
    for (const char* level : {"level0.parquet", "level1.parquet"}) {
        duck("COPY (SELECT * EXCLUDE (\"internal:current_id\") FROM read_parquet('" +
             kNestedFolder + "/METADATA/" + level + "')) TO '" +
             (copy / "METADATA" / level).string() + "' (FORMAT parquet)");
    }
    // A __meta__ with extra columns, as tacobridge's folder2zip writes them.
    const fs::path meta = copy / "DATA" / "europe" / "__meta__";
    duck("COPY (SELECT *, 7 AS \"internal:current_id\", 'x' AS extra FROM read_parquet('" +
         kNestedFolder + "/DATA/europe/__meta__')) TO '" + meta.string() + "' (FORMAT parquet)");
    const Dataset ds = load(copy);
    const DataFrame top = ds.data();
    EXPECT_EQ(top.rows(), 3u);
    const DataFrame europe = std::get<DataFrame>(top.read("europe"));
    EXPECT_EQ(europe.rows(), 3u);
    EXPECT_TRUE(europe.has_column("extra"));
    EXPECT_EQ(europe.read_bytes("item_0"), slurp(kNestedFolder + "/DATA/europe/item_0"));
}

}  // namespace
