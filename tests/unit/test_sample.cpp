// Sample: the id and extension-key rules (spec §5.5.1, FORMAT.md §8.1) with their messages, the
// three constructors, field editing and padding samples.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "metadata/duckdb_session.hpp"
#include "metadata/result_table.hpp"
#include "taco/errors.hpp"
#include "taco/sample.hpp"
#include "taco/tortilla.hpp"

namespace fs = std::filesystem;
using namespace taco;

#include "test_util.hpp"
#include "toolbox/sample_table.hpp"

using taco::test::contains;
using taco::test::error_of;
using taco::test::TempDir;

namespace {}  // namespace

// --- ids
// ------------------------------------------------------------------------------------------

TEST(SampleId, AcceptsOrdinaryIds) {
    for (const char* id : {"a", "tile_001", "S2A.tif", "x-y z", "\xc3\xa9t\xc3\xa9", "a__b", "_a",
                           ".hidden", "..."}) {
        EXPECT_NO_THROW(validate_sample_id(id)) << id;
    }
}

TEST(SampleId, RejectsEachRuleWithAMessageNamingIdAndRule) {
    struct Case {
        std::string id;
        std::string rule;
        std::string shown = id;  // how the message prints the id
    };
    const std::vector<Case> cases = {
        {"a/b", "contains a slash"},
        {"a\\b", "contains a slash"},
        {"a:b", "contains ':'"},
        {std::string("a\0b", 3), "contains a NUL byte", "a\\0b"},
        {"", "it is empty"},
        {".", "'.' and '..' are not allowed"},
        {"..", "'.' and '..' are not allowed"},
        {"__x", "reserved for padding"},
        {"__TACOPAD__0", "reserved for padding"},
    };
    for (const auto& c : cases) {
        std::string msg = error_of<SchemaError>([&] { validate_sample_id(c.id); });
        EXPECT_TRUE(contains(msg, "invalid sample id '" + c.shown + "'")) << msg;
        EXPECT_TRUE(contains(msg, c.rule)) << msg;
    }
}

TEST(SampleId, EveryConstructorChecksTheId) {
    TempDir dir;
    fs::path p = dir.path() / "f.bin";
    std::ofstream(p) << "x";
    EXPECT_THROW(Sample::bytes("a/b", "x"), SchemaError);
    EXPECT_THROW(Sample::file("a:b", p), SchemaError);
    EXPECT_THROW(Sample::folder("__f", Tortilla({Sample::bytes("c", "x")})), SchemaError);
}

// --- extension keys
// -------------------------------------------------------------------------------

TEST(ExtensionKey, AcceptsThePatternOfTheReference) {
    for (const char* key :
         {"cloud_cover", "stac:crs", "geotiff:stats", "A1_b", "_", "x:_1", "split",
          "ns:\xc3\xbcn\xc3\xaf" /* \w admits non-ASCII after the colon */}) {
        EXPECT_NO_THROW(validate_extension_key(key)) << key;
    }
}

TEST(ExtensionKey, RejectsReservedCoreFields) {
    for (const char* key : {"id", "type", "path"}) {
        std::string msg = error_of<SchemaError>([&] { validate_extension_key(key); });
        EXPECT_TRUE(contains(msg, "invalid metadata key '" + std::string(key) + "'")) << msg;
        EXPECT_TRUE(contains(msg, "reserved core field")) << msg;
    }
}

TEST(ExtensionKey, RejectsTheInternalNamespace) {
    std::string msg = error_of<SchemaError>([] { validate_extension_key("internal:offset"); });
    EXPECT_TRUE(contains(msg, "'internal:offset'")) << msg;
    EXPECT_TRUE(contains(msg, "'internal:' namespace is reserved")) << msg;
}

TEST(ExtensionKey, RejectsTwoColons) {
    std::string msg = error_of<SchemaError>([] { validate_extension_key("a:b:c"); });
    EXPECT_TRUE(contains(msg, "'a:b:c'")) << msg;
    EXPECT_TRUE(contains(msg, "at most one ':'")) << msg;
}

TEST(ExtensionKey, RejectsEmptyPartsAroundTheColon) {
    std::string before = error_of<SchemaError>([] { validate_extension_key(":x"); });
    EXPECT_TRUE(contains(before, "before the ':'")) << before;
    std::string after = error_of<SchemaError>([] { validate_extension_key("x:"); });
    EXPECT_TRUE(contains(after, "after the ':'")) << after;
    EXPECT_THROW(validate_extension_key(""), SchemaError);
}

TEST(ExtensionKey, RejectsCharactersOutsideThePattern) {
    for (const char* key : {"has space", "a-b", "stac.crs", "a/b",
                            "\xc3\xbcn:x" /* non-ASCII before the colon */, "x:a-b"}) {
        std::string msg = error_of<SchemaError>([&] { validate_extension_key(key); });
        EXPECT_TRUE(contains(msg, "invalid metadata key '" + std::string(key) + "'")) << msg;
        EXPECT_TRUE(contains(msg, "expected only letters, digits, '_'")) << msg;
    }
}

TEST(ExtensionKey, SetRejectsBadKeysAndLeavesTheSampleUnchanged) {
    Sample s = Sample::bytes("s", "x");
    EXPECT_THROW(s.set("id", Value("x")), SchemaError);
    EXPECT_THROW(s.set("internal:size", Value(1)), SchemaError);
    EXPECT_TRUE(s.fields().empty());
}

// --- constructors
// ---------------------------------------------------------------------------------

TEST(SampleFile, ReadsSizeAndStoresAnAbsolutePath) {
    TempDir dir;
    fs::path p = dir.path() / "data.bin";
    std::ofstream(p, std::ios::binary) << "12345";
    Sample s = Sample::file("d", p);
    EXPECT_EQ(s.id(), "d");
    EXPECT_TRUE(s.is_file());
    EXPECT_FALSE(s.is_folder());
    EXPECT_FALSE(s.is_padding());
    EXPECT_EQ(s.type(), SampleType::File);
    EXPECT_EQ(s.size(), 5u);
    EXPECT_TRUE(s.path().is_absolute());
    EXPECT_TRUE(fs::equivalent(s.path(), p));
    EXPECT_EQ(s.memory(), nullptr);
}

TEST(SampleFile, MissingPathIsAnIoErrorNamingSampleAndPath) {
    TempDir dir;
    fs::path p = dir.path() / "nope.tif";
    std::string msg = error_of<IoError>([&] { Sample::file("tile_7", p); });
    EXPECT_TRUE(contains(msg, "sample 'tile_7'")) << msg;
    EXPECT_TRUE(contains(msg, "file not found")) << msg;
    EXPECT_TRUE(contains(msg, p.string())) << msg;
}

TEST(SampleFile, DirectoryIsAnIoError) {
    TempDir dir;
    std::string msg = error_of<IoError>([&] { Sample::file("d", dir.path()); });
    EXPECT_TRUE(contains(msg, "sample 'd'")) << msg;
    EXPECT_TRUE(contains(msg, "not a regular file")) << msg;
    EXPECT_TRUE(contains(msg, dir.path().string())) << msg;
}

TEST(SampleBytes, KeepsTheBytesInMemory) {
    Sample s = Sample::bytes("m", std::string("a\0b", 3));
    EXPECT_TRUE(s.is_file());
    EXPECT_EQ(s.size(), 3u);
    ASSERT_NE(s.memory(), nullptr);
    EXPECT_EQ(*s.memory(), std::string("a\0b", 3));
    EXPECT_TRUE(s.path().empty());
}

TEST(SampleBytes, EmptyDataMakesAZeroByteSample) {
    Sample s = Sample::bytes("e", "");
    EXPECT_EQ(s.size(), 0u);
    EXPECT_EQ(s.memory(), nullptr);
    EXPECT_TRUE(s.is_file());
}

TEST(SampleFolder, HoldsChildrenAndTheirTotalSize) {
    Tortilla kids({Sample::bytes("a", "123"), Sample::bytes("b", "4567")});
    Sample f = Sample::folder("f", kids);
    EXPECT_TRUE(f.is_folder());
    EXPECT_EQ(f.type(), SampleType::Folder);
    EXPECT_EQ(f.size(), 7u);
    ASSERT_EQ(f.children().size(), 2u);
    EXPECT_EQ(f.children()[1].id(), "b");
    EXPECT_EQ(f.memory(), nullptr);
    EXPECT_TRUE(f.path().empty());
}

TEST(SampleFolder, ChildrenOfAFileIsASchemaError) {
    Sample s = Sample::bytes("leaf", "x");
    std::string msg = error_of<SchemaError>([&] { (void)s.children(); });
    EXPECT_TRUE(contains(msg, "sample 'leaf' is a FILE and has no children")) << msg;
}

TEST(SampleType, PrintsAsInTheFormat) {
    EXPECT_STREQ(to_string(SampleType::File), "FILE");
    EXPECT_STREQ(to_string(SampleType::Folder), "FOLDER");
}

// --- fields
// ---------------------------------------------------------------------------------------

TEST(SampleFields, SetAppendsInOrderAndReplacesInPlace) {
    Sample s = Sample::bytes("s", "x");
    s.set("x", Value(1)).set("y", Value("a"));
    s.set("x", Value(2.5));
    ASSERT_EQ(s.fields().size(), 2u);
    EXPECT_EQ(s.fields()[0].name, "x");
    EXPECT_EQ(s.fields()[1].name, "y");
    EXPECT_EQ(s.fields()[0].value.type(), DataType::float64());
    EXPECT_DOUBLE_EQ(s.fields()[0].value.as_double(), 2.5);
    ASSERT_NE(s.get("y"), nullptr);
    EXPECT_EQ(s.get("y")->as_string(), "a");
    EXPECT_EQ(s.get("z"), nullptr);
}

TEST(SampleFields, ExtendWithSetsEveryPairInOrder) {
    Sample s = Sample::bytes("s", "x");
    s.set("b", Value(0));
    s.extend_with({{"a", Value(1)}, {"b", Value(2)}, {"c", Value(3)}});
    ASSERT_EQ(s.fields().size(), 3u);
    EXPECT_EQ(s.fields()[0].name, "b");
    EXPECT_EQ(s.fields()[0].value.as_int(), 2);
    EXPECT_EQ(s.fields()[1].name, "a");
    EXPECT_EQ(s.fields()[2].name, "c");
    EXPECT_THROW(s.extend_with({{"ok", Value(1)}, {"bad key", Value(2)}}), SchemaError);
}

TEST(SampleFields, PopReturnsAndRemovesTheField) {
    Sample s = Sample::bytes("s", "x");
    s.set("a", Value(1)).set("b", Value("two")).set("c", Value(3));
    Value v = s.pop("b");
    EXPECT_EQ(v.as_string(), "two");
    ASSERT_EQ(s.fields().size(), 2u);
    EXPECT_EQ(s.fields()[0].name, "a");
    EXPECT_EQ(s.fields()[1].name, "c");
    EXPECT_EQ(s.get("b"), nullptr);
}

TEST(SampleFields, PopOfACoreFieldIsASchemaError) {
    Sample s = Sample::bytes("s1", "x");
    for (const char* key : {"id", "type", "path"}) {
        std::string msg = error_of<SchemaError>([&] { s.pop(key); });
        EXPECT_TRUE(contains(msg, "cannot remove core field '" + std::string(key) + "'")) << msg;
        EXPECT_TRUE(contains(msg, "sample 's1'")) << msg;
    }
}

TEST(SampleFields, PopOfAMissingFieldIsOutOfRange) {
    Sample s = Sample::bytes("s1", "x");
    std::string msg = error_of<std::out_of_range>([&] { s.pop("missing"); });
    EXPECT_TRUE(contains(msg, "sample 's1' has no field 'missing'")) << msg;
}

// --- padding
// --------------------------------------------------------------------------------------

TEST(SamplePadding, IsAZeroByteFileWithTypedNullFields) {
    std::vector<ColumnType> schema = {{"a", DataType::int64()},
                                      {"b", DataType::list(DataType::float32())}};
    Sample p = Sample::padding(3, schema);
    EXPECT_EQ(p.id(), "__TACOPAD__3");
    EXPECT_TRUE(p.is_padding());
    EXPECT_TRUE(p.is_file());
    EXPECT_EQ(p.size(), 0u);
    EXPECT_EQ(p.memory(), nullptr);
    ASSERT_EQ(p.fields().size(), 2u);
    EXPECT_EQ(p.fields()[0].name, "a");
    EXPECT_TRUE(p.fields()[0].value.is_null());
    EXPECT_EQ(p.fields()[0].value.type(), DataType::int64());
    EXPECT_EQ(p.fields()[1].name, "b");
    EXPECT_TRUE(p.fields()[1].value.is_null());
    EXPECT_EQ(p.fields()[1].value.type(), DataType::list(DataType::float32()));
}

// tacotoolbox's export_metadata() (toolbox/sample_table.hpp): id, type, path, then the fields in
// the order first seen, typed as stored; a field two samples type differently is named.
TEST(SamplesTable, CoreColumnsThenFieldsInFirstSeenOrder) {
    Sample a = Sample::bytes("a", "1");
    a.set("x", Value(1LL));
    Sample b = Sample::bytes("b", "22");
    b.set("y", Value::list({}));
    b.set("x", Value());
    metadata::DuckSession db(1);
    const auto table = toolbox::samples_table({&a, &b}, db);
    ASSERT_EQ(table->rows(), 2u);
    std::vector<std::string> names;
    for (const auto& c : table->schema()) names.push_back(c.name + ":" + c.type.arrow_name());
    EXPECT_EQ(names, (std::vector<std::string>{"id:string", "type:string", "path:string", "x:int64",
                                               "y:list<item: string>"}));
    Sample c = Sample::bytes("c", "3");
    c.set("x", Value("text"));
    try {
        toolbox::samples_table({&a, &c}, db);
        FAIL() << "expected a SchemaError";
    } catch (const SchemaError& e) {
        EXPECT_NE(std::string(e.what()).find("sample 'c' field 'x'"), std::string::npos)
            << e.what();
    }
}
