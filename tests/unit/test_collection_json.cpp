// COLLECTION.json (FORMAT.md §5): key order, provider shapes, Python-identical serialization,
// taco:pit_schema and taco:field_schema; plus the level tables they are built from and parsing the
// document back (collection_parse).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "format/collection_json.hpp"
#include "format/collection_parse.hpp"
#include "format/collection_schema.hpp"
#include "metadata/level_tables.hpp"
#include "model/time_format.hpp"
#include "taco/collection.hpp"
#include "taco/errors.hpp"

using namespace taco;
using format::OrderedJson;

#include "test_util.hpp"

using taco::test::contains;
using taco::test::error_of;

namespace {

std::string point(double x, double y) {
    std::string b(21, '\0');
    b[0] = 1;
    uint32_t type = 1;
    std::memcpy(&b[1], &type, 4);
    std::memcpy(&b[5], &x, 8);
    std::memcpy(&b[13], &y, 8);
    return b;
}

Sample file(const std::string& id, std::vector<Field> fields = {}) {
    Sample s = Sample::bytes(id, "x");
    s.extend_with(fields);
    return s;
}

Sample folder(const std::string& id, std::vector<Sample> kids, size_t pad_to = 1) {
    TortillaOptions opt;
    opt.pad_to = pad_to;
    return Sample::folder(id, Tortilla(std::move(kids), opt));
}

CollectionInfo basic_info() {
    CollectionInfo i;
    i.id = "demo";
    i.dataset_version = "1.0.0";
    i.description = "d";
    i.licenses = {"MIT"};
    Contact p;
    p.name = "Ana";
    i.providers = {p};
    i.tasks = {"other"};
    return i;
}

std::vector<std::string> keys(const OrderedJson& j) {
    std::vector<std::string> out;
    for (const auto& [k, v] : j.items()) out.push_back(k);
    return out;
}

std::string pit_of(const Tortilla& root) {
    Taco taco(root, basic_info());
    return format::pit_schema_json(metadata::build_level_tables(taco)).dump();
}

OrderedJson field_schema_of(const Tortilla& root) {
    Taco taco(root, basic_info());
    return format::field_schema_json(metadata::build_level_tables(taco),
                                     taco.info().field_descriptions);
}

// The dataset behind kGoldenDocument: two FOLDER tiles with two FILEs each, STAC at level 1.
Taco golden_taco() {
    auto tile = [](const std::string& id, const std::string& region, double lon, double lat,
                   const std::string& when) {
        int64_t t = *model::parse_iso_utc(when);
        auto kid = [&](const std::string& kid_id, double cloud) {
            return file(kid_id, {{"stac:time_start", Value::timestamp(t)},
                                 {"stac:centroid", Value::binary(point(lon, lat))},
                                 {"cloud", Value(cloud)}});
        };
        Sample f = folder(id, {kid("s2", 0.5), kid("mask", 0.25)});
        f.set("region", Value(region));
        return f;
    };
    Tortilla root({tile("t0", "eu", 2.35, 48.85, "2023-01-01T00:00:00Z"),
                   tile("t1", "sa", -77.0, -12.0, "2023-03-02T10:00:00.25Z")});
    CollectionInfo i;
    i.id = "demo_set";
    i.dataset_version = "0.1.0";
    i.description = "Démonstration — ünïcödé";
    i.licenses = {"CC-BY-4.0"};
    Contact ana;
    ana.name = "Ana";
    ana.organization = "UV";
    ana.email = "ana@uv.es";
    ana.role = "producer";
    Contact esa;
    esa.name = "ESA";
    esa.roles = std::vector<std::string>{"licensor"};
    esa.url = "https://esa.int";
    esa.links = std::vector<std::map<std::string, std::string>>{
        {{"href", "https://esa.int/s2"}, {"rel", "about"}}};
    i.providers = {ana, esa};
    i.tasks = {"semantic-segmentation"};
    i.title = "Démo";
    i.keywords = std::vector<std::string>{"clouds", "sentinel-2"};
    i.extensions = {{"split:strategy", R"("random")"},
                    {"labels:classes",
                     R"([{"name": "clear", "category": 0}, {"name": "cloud", "category": 1}])"},
                    {"optical:num_bands", "13"},
                    {"empty", "{}"}};
    return Taco(root, i);
}

// Produced by Python 3.11 json.dumps(doc, indent=4, ensure_ascii=False) for the same document.
const char* const kGoldenDocument = R"JSON({
    "id": "demo_set",
    "dataset_version": "0.1.0",
    "description": "Démonstration — ünïcödé",
    "licenses": [
        "CC-BY-4.0"
    ],
    "providers": [
        {
            "name": "Ana",
            "organization": "UV",
            "email": "ana@uv.es",
            "role": "producer"
        },
        {
            "name": "ESA",
            "roles": [
                "licensor"
            ],
            "url": "https://esa.int",
            "links": [
                {
                    "href": "https://esa.int/s2",
                    "rel": "about"
                }
            ]
        }
    ],
    "tasks": [
        "semantic-segmentation"
    ],
    "taco_version": "2.0.0",
    "title": "Démo",
    "curators": null,
    "keywords": [
        "clouds",
        "sentinel-2"
    ],
    "extent": {
        "spatial": [
            -77.0,
            -12.0,
            2.35,
            48.85
        ],
        "temporal": [
            "2023-01-01T00:00:00Z",
            "2023-03-02T10:00:00.250000Z"
        ]
    },
    "split:strategy": "random",
    "labels:classes": [
        {
            "name": "clear",
            "category": 0
        },
        {
            "name": "cloud",
            "category": 1
        }
    ],
    "optical:num_bands": 13,
    "empty": {},
    "taco:pit_schema": {
        "root": {
            "n": 2,
            "type": "FOLDER"
        },
        "hierarchy": {
            "1": [
                {
                    "n": 4,
                    "type": [
                        "FILE",
                        "FILE"
                    ],
                    "id": [
                        "s2",
                        "mask"
                    ]
                }
            ]
        }
    },
    "taco:field_schema": {
        "level0": [
            [
                "id",
                "string",
                "Unique sample identifier within parent scope. Must be unique among siblings."
            ],
            [
                "type",
                "string",
                "Sample type discriminator (FILE or FOLDER)."
            ],
            [
                "region",
                "string",
                ""
            ],
            [
                "internal:current_id",
                "int64",
                "Current sample position at this level (0-indexed). Enables O(1) random access and relational JOINs (ZIP, FOLDER, TACOCAT)."
            ],
            [
                "internal:parent_id",
                "int64",
                "Foreign key referencing parent sample position in previous level (ZIP, FOLDER, TACOCAT)."
            ]
        ],
        "level1": [
            [
                "id",
                "string",
                "Unique sample identifier within parent scope. Must be unique among siblings."
            ],
            [
                "type",
                "string",
                "Sample type discriminator (FILE or FOLDER)."
            ],
            [
                "cloud",
                "double",
                ""
            ],
            [
                "stac:centroid",
                "binary",
                ""
            ],
            [
                "stac:time_start",
                "timestamp[us]",
                ""
            ],
            [
                "internal:current_id",
                "int64",
                "Current sample position at this level (0-indexed). Enables O(1) random access and relational JOINs (ZIP, FOLDER, TACOCAT)."
            ],
            [
                "internal:parent_id",
                "int64",
                "Foreign key referencing parent sample position in previous level (ZIP, FOLDER, TACOCAT)."
            ],
            [
                "internal:relative_path",
                "string",
                "Relative path from DATA/ directory. Format: {parent_path}/{id} or {id} for level0 (ZIP, FOLDER, TACOCAT)."
            ]
        ]
    }
})JSON";

// The input of DumpPythonStyle below, and Python 3.11's
// json.dumps(json.loads(kDumpInput), indent=4, ensure_ascii=False) of it.
const char* const kDumpInput =
    R"JSON({"id": "démo", "empty_list": [], "empty_obj": {}, "nested": {"a": [], "b": {}, "c": [[], {}], "d": [{"e": []}]}, "floats": [-77.0, 48.85, 1e-05, 1e16, 0.1, 0.0001, 123456789.125, -0.0, 2.5e-300, 1.7976931348623157e308, 123456789012345.6], "ints": [0, -1, 9007199254740993], "unicode": "Ñandú — 東京 😀", "escapes": "q \" b \\ t \t n \n c \u0001 del", "null": null, "bools": [true, false]})JSON";
const char* const kDumpExpected = R"JSON({
    "id": "démo",
    "empty_list": [],
    "empty_obj": {},
    "nested": {
        "a": [],
        "b": {},
        "c": [
            [],
            {}
        ],
        "d": [
            {
                "e": []
            }
        ]
    },
    "floats": [
        -77.0,
        48.85,
        1e-05,
        1e+16,
        0.1,
        0.0001,
        123456789.125,
        -0.0,
        2.5e-300,
        1.7976931348623157e+308,
        123456789012345.6
    ],
    "ints": [
        0,
        -1,
        9007199254740993
    ],
    "unicode": "Ñandú — 東京 😀",
    "escapes": "q \" b \\ t \t n \n c \u0001 del",
    "null": null,
    "bools": [
        true,
        false
    ]
})JSON";

}  // namespace

// --- document
// -------------------------------------------------------------------------------------

TEST(CollectionJson, KeysAreInTheReferenceOrder) {
    CollectionInfo i = basic_info();
    i.extensions = {
        {"labels:classes", "[]"}, {"zzz", R"({"b": 1, "a": 2})"}, {"publications", "[]"}};
    Taco taco(Tortilla({file("a")}), i);
    OrderedJson doc = format::collection_json(taco, metadata::build_level_tables(taco));
    const std::vector<std::string> expected = {
        "id",        "dataset_version", "description",     "licenses",
        "providers", "tasks",           "taco_version",    "title",
        "curators",  "keywords",        "extent",          "labels:classes",
        "zzz",       "publications",    "taco:pit_schema", "taco:field_schema"};
    EXPECT_EQ(keys(doc), expected);
    EXPECT_EQ(keys(doc["zzz"]), (std::vector<std::string>{"b", "a"}));  // extension order kept
    EXPECT_EQ(keys(doc["extent"]), (std::vector<std::string>{"spatial", "temporal"}));
}

TEST(CollectionJson, UnsetOptionalKeysAreNull) {
    Taco taco(Tortilla({file("a")}), basic_info());
    OrderedJson doc = format::collection_json(taco, metadata::build_level_tables(taco));
    EXPECT_TRUE(doc["title"].is_null());
    EXPECT_TRUE(doc["curators"].is_null());
    EXPECT_TRUE(doc["keywords"].is_null());
    EXPECT_TRUE(doc["extent"]["temporal"].is_null());
    EXPECT_EQ(doc["extent"]["spatial"].dump(), "[-180.0,-90.0,180.0,90.0]");
    EXPECT_EQ(doc["taco_version"], "2.0.0");
}

TEST(CollectionJson, ContactShapes) {
    CollectionInfo i = basic_info();
    Contact classic;
    classic.name = "Ana";
    classic.email = "ana@uv.es";
    Contact provider;
    provider.name = "ESA";
    provider.roles = std::vector<std::string>{"producer", "host"};
    provider.url = "https://esa.int";
    provider.links = std::vector<std::map<std::string, std::string>>{{{"href", "https://x.org"}}};
    Contact roles_only;
    roles_only.name = "JRC";
    roles_only.roles = std::vector<std::string>{"processor"};
    Contact curator;
    curator.organization = "UV";
    i.providers = {classic, provider, roles_only};
    i.curators = std::vector<Contact>{curator};
    Taco taco(Tortilla({file("a")}), i);
    OrderedJson doc = format::collection_json(taco, metadata::build_level_tables(taco));

    const auto& p = doc["providers"];
    ASSERT_EQ(p.size(), 3u);
    EXPECT_EQ(keys(p[0]), (std::vector<std::string>{"name", "organization", "email", "role"}));
    EXPECT_EQ(p[0].dump(), R"({"name":"Ana","organization":null,"email":"ana@uv.es","role":null})");
    EXPECT_EQ(keys(p[1]), (std::vector<std::string>{"name", "roles", "url", "links"}));
    EXPECT_EQ(p[1].dump(), R"({"name":"ESA","roles":["producer","host"],"url":"https://esa.int",)"
                           R"("links":[{"href":"https://x.org"}]})");
    EXPECT_EQ(p[2].dump(), R"({"name":"JRC","roles":["processor"],"url":null,"links":null})");
    EXPECT_EQ(doc["curators"].dump(),
              R"([{"name":null,"organization":"UV","email":null,"role":null}])");
}

TEST(CollectionJson, WholeDocumentMatchesPythonByteForByte) {
    Taco taco = golden_taco();
    std::string text = format::dump_python_style(
        format::collection_json(taco, metadata::build_level_tables(taco)));
    EXPECT_EQ(text, kGoldenDocument);
    EXPECT_NE(text.back(), '\n');
}

// --- Python-style serialization
// -------------------------------------------------------------------

TEST(CollectionJson, DumpPythonStyle) {
    std::string text = format::dump_python_style(OrderedJson::parse(kDumpInput));
    EXPECT_EQ(text, kDumpExpected);
}

TEST(CollectionJson, DumpPythonStyleFloats) {
    // repr() of each float, as Python's json module writes it. Note 1e15 and 1234567890123456.0:
    // repr() stays positional up to 16 integer digits, nlohmann switches to an exponent at 16.
    const std::vector<std::pair<double, std::string>> cases = {
        {-77.0, "-77.0"},
        {48.85, "48.85"},
        {1e-05, "1e-05"},
        {0.0001, "0.0001"},
        {1e16, "1e+16"},
        {1e15, "1000000000000000.0"},
        {0.1, "0.1"},
        {1234567890123456.0, "1234567890123456.0"},
        {0.30000000000000004, "0.30000000000000004"},
        {5e-324, "5e-324"},
        {-0.0, "-0.0"},
        {123456789.125, "123456789.125"}};
    for (const auto& [value, python] : cases) {
        EXPECT_EQ(format::dump_python_style(OrderedJson(value)), python);
    }
}

TEST(CollectionJson, DumpPythonStyleStrings) {
    EXPECT_EQ(format::dump_python_style(OrderedJson("a\x7f"
                                                    "b")),
              "\"a\x7f"
              "b\"");
    EXPECT_EQ(format::dump_python_style(OrderedJson("\x1f\b\f\r")), R"("\u001f\b\f\r")");
    EXPECT_EQ(format::dump_python_style(OrderedJson("\xe2\x80\xa8")), "\"\xe2\x80\xa8\"");
    EXPECT_EQ(format::dump_python_style(OrderedJson::object()), "{}");
    EXPECT_EQ(format::dump_python_style(OrderedJson::array()), "[]");
}

// --- taco:pit_schema
// ------------------------------------------------------------------------------

TEST(PitSchema, FlatDataset) {
    Tortilla root({file("a"), file("b"), file("c")});
    EXPECT_EQ(pit_of(root), R"({"root":{"n":3,"type":"FILE"},"hierarchy":{}})");
}

TEST(PitSchema, TwoLevels) {
    auto tile = [](const std::string& id) { return folder(id, {file("a"), file("b"), file("c")}); };
    Tortilla root({tile("t0"), tile("t1"), tile("t2")});
    EXPECT_EQ(
        pit_of(root),
        R"({"root":{"n":3,"type":"FOLDER"},"hierarchy":{"1":[{"n":9,"type":["FILE","FILE","FILE"],)"
        R"("id":["a","b","c"]}]}})");
}

TEST(PitSchema, ThreeLevelsHaveOnePatternPerFolderPosition) {
    auto tile = [](const std::string& id) {
        return folder(id, {folder("sensor_A", {file("R"), file("G"), file("B")}),
                           folder("sensor_B", {file("nir"), file("swir")}), file("meta")});
    };
    Tortilla root({tile("t0"), tile("t1"), tile("t2")});
    EXPECT_EQ(
        pit_of(root),
        R"({"root":{"n":3,"type":"FOLDER"},"hierarchy":{)"
        R"("1":[{"n":9,"type":["FOLDER","FOLDER","FILE"],"id":["sensor_A","sensor_B","meta"]}],)"
        R"("2":[{"n":9,"type":["FILE","FILE","FILE"],"id":["R","G","B"]},)"
        R"({"n":6,"type":["FILE","FILE"],"id":["nir","swir"]}]}})");
}

TEST(PitSchema, FourLevels) {
    auto root_sample = [](const std::string& id) {
        return folder(id, {folder("x", {folder("y", {file("a"), file("b")})})});
    };
    Tortilla root({root_sample("r0"), root_sample("r1")});
    EXPECT_EQ(pit_of(root), R"({"root":{"n":2,"type":"FOLDER"},"hierarchy":{)"
                            R"("1":[{"n":2,"type":["FOLDER"],"id":["x"]}],)"
                            R"("2":[{"n":2,"type":["FOLDER"],"id":["y"]}],)"
                            R"("3":[{"n":4,"type":["FILE","FILE"],"id":["a","b"]}]}})");
}

TEST(PitSchema, PatternComesFromTheGroupWithMostRealChildren) {
    // r0's second child is padding; the pattern must show r1's real ids.
    Tortilla root({folder("r0", {file("a")}, 2), folder("r1", {file("a"), file("b")})});
    EXPECT_EQ(pit_of(root),
              R"({"root":{"n":2,"type":"FOLDER"},"hierarchy":{"1":[{"n":4,"type":["FILE","FILE"],)"
              R"("id":["a","b"]}]}})");
}

TEST(PitSchema, PaddingAtLevel2) {
    Tortilla root({folder("t0", {folder("s", {file("R")}, 2)}),
                   folder("t1", {folder("s", {file("R"), file("G")})})});
    EXPECT_EQ(pit_of(root), R"({"root":{"n":2,"type":"FOLDER"},"hierarchy":{)"
                            R"("1":[{"n":2,"type":["FOLDER"],"id":["s"]}],)"
                            R"("2":[{"n":4,"type":["FILE","FILE"],"id":["R","G"]}]}})");
}

TEST(PitSchema, RootCountIncludesPadding) {
    TortillaOptions opt;
    opt.pad_to = 4;
    Tortilla root({file("a"), file("b"), file("c")}, opt);
    EXPECT_EQ(pit_of(root), R"({"root":{"n":4,"type":"FILE"},"hierarchy":{}})");
}

// --- taco:field_schema
// ----------------------------------------------------------------------------

TEST(FieldSchema, ArrowTypeNamesInColumnOrder) {
    std::vector<Field> fields = {
        {"stac:time_start", Value::timestamp(1)},
        {"geotiff:stats", Value::list({Value::list({Value(1.0f), Value(2.0f)})})},
        {"cloud", Value(0.5)},
        {"n", Value::int32(3)},
        {"big", Value(3)},
        {"flag", Value(true)},
        {"blob", Value::binary("\x01")},
        {"shape", Value::list({Value(1), Value(2)})},
        {"allnull", Value()}};
    OrderedJson fs = field_schema_of(Tortilla({file("a", fields)}));
    ASSERT_EQ(keys(fs), (std::vector<std::string>{"level0"}));
    std::vector<std::pair<std::string, std::string>> got;
    for (const auto& e : fs["level0"]) {
        ASSERT_EQ(e.size(), 3u);
        got.emplace_back(e[0].get<std::string>(), e[1].get<std::string>());
    }
    const std::vector<std::pair<std::string, std::string>> expected = {
        {"id", "string"},
        {"type", "string"},
        {"stac:time_start", "timestamp[us]"},
        {"geotiff:stats", "list<item: list<item: float>>"},
        {"cloud", "double"},
        {"n", "int32"},
        {"big", "int64"},
        {"flag", "bool"},
        {"blob", "binary"},
        {"shape", "list<item: int64>"},
        {"allnull", "string"},  // an all-null column is written as text
        {"internal:current_id", "int64"},
        {"internal:parent_id", "int64"}};
    EXPECT_EQ(got, expected);
}

TEST(FieldSchema, BuiltInDescriptionsAndEmptyOnesForExtensions) {
    OrderedJson fs = field_schema_of(Tortilla({file("a", {{"cloud", Value(0.5)}})}));
    const auto& l0 = fs["level0"];
    ASSERT_EQ(l0.size(), 5u);
    EXPECT_EQ(l0[0][2],
              "Unique sample identifier within parent scope. Must be unique among siblings.");
    EXPECT_EQ(l0[1][2], "Sample type discriminator (FILE or FOLDER).");
    EXPECT_EQ(l0[2][2], "");
    EXPECT_EQ(l0[3][2],
              "Current sample position at this level (0-indexed). Enables O(1) random access and "
              "relational JOINs (ZIP, FOLDER, TACOCAT).");
    EXPECT_EQ(l0[4][2],
              "Foreign key referencing parent sample position in previous level (ZIP, FOLDER, "
              "TACOCAT).");
}

TEST(FieldSchema, TheExtensionsDescriptionsWinAtEveryLevel) {
    // CollectionInfo::field_descriptions: what tacotoolbox collects from the extensions'
    // get_field_descriptions(). A column no level has is left out; "split" loses its built-in text.
    CollectionInfo info = basic_info();
    info.field_descriptions = {
        {"cloud", "Cloudy pixels (%)"}, {"split", "my split"}, {"absent", "never written"}};
    Tortilla root({folder("t0", {file("a", {{"cloud", Value(0.5)}})}),
                   folder("t1", {file("a", {{"cloud", Value(0.7)}})})});
    Tortilla split_root({file("x", {{"split", Value(std::string("train"))}})});
    Taco taco(root, info), split_taco(split_root, info);
    OrderedJson doc = format::collection_json(taco, metadata::build_level_tables(taco));
    EXPECT_EQ(doc["taco:field_schema"]["level1"][2].dump(),
              R"j(["cloud","double","Cloudy pixels (%)"])j");
    EXPECT_EQ(doc.dump().find("never written"), std::string::npos);
    OrderedJson split_doc =
        format::collection_json(split_taco, metadata::build_level_tables(split_taco));
    EXPECT_EQ(split_doc["taco:field_schema"]["level0"][2].dump(),
              R"(["split","string","my split"])");
}

TEST(FieldSchema, RelativePathOnlyBelowTheRootAndNeverOffsetOrSize) {
    Tortilla root({folder("t0", {folder("s", {file("a", {{"v", Value(1)}})})}),
                   folder("t1", {folder("s", {file("a", {{"v", Value(2)}})})})});
    OrderedJson fs = field_schema_of(root);
    ASSERT_EQ(keys(fs), (std::vector<std::string>{"level0", "level1", "level2"}));
    for (const auto& [level, cols] : fs.items()) {
        std::vector<std::string> names;
        for (const auto& e : cols) names.push_back(e[0].get<std::string>());
        EXPECT_EQ(std::count(names.begin(), names.end(), "internal:offset"), 0) << level;
        EXPECT_EQ(std::count(names.begin(), names.end(), "internal:size"), 0) << level;
        bool has_rel = std::count(names.begin(), names.end(), "internal:relative_path") == 1;
        EXPECT_EQ(has_rel, level != "level0") << level;
        if (level != "level0") {
            EXPECT_EQ(names.back(), "internal:relative_path") << level;
            EXPECT_EQ(cols.back()[2],
                      "Relative path from DATA/ directory. Format: {parent_path}/{id} or {id} for "
                      "level0 (ZIP, FOLDER, TACOCAT).");
        }
    }
    EXPECT_EQ(fs["level2"][2].dump(), R"(["v","int64",""])");
}

// --- level tables
// ---------------------------------------------------------------------------------

TEST(LevelTables, RowsAreParentMajorWithParentsAndRelativePaths) {
    Tortilla root({folder("t0", {folder("s", {file("a"), file("b")}), file("m")}),
                   folder("t1", {folder("s", {file("a"), file("b")}), file("m")})});
    Taco taco(root, basic_info());
    auto levels = metadata::build_level_tables(taco);
    ASSERT_EQ(levels.size(), 3u);
    ASSERT_EQ(levels[0].rows.size(), 2u);
    ASSERT_EQ(levels[1].rows.size(), 4u);
    ASSERT_EQ(levels[2].rows.size(), 4u);

    EXPECT_EQ(levels[0].rows[1].parent, 1);  // level 0 points at itself
    EXPECT_EQ(levels[0].rows[0].child_begin, 0);
    EXPECT_EQ(levels[0].rows[1].child_begin, 2);
    EXPECT_TRUE(levels[0].rows[0].relative_path.empty());

    std::vector<std::string> rel1, rel2;
    std::vector<int64_t> par1, par2;
    for (const auto& r : levels[1].rows) rel1.push_back(r.relative_path), par1.push_back(r.parent);
    for (const auto& r : levels[2].rows) rel2.push_back(r.relative_path), par2.push_back(r.parent);
    EXPECT_EQ(rel1, (std::vector<std::string>{"t0/s/", "t0/m", "t1/s/", "t1/m"}));
    EXPECT_EQ(par1, (std::vector<int64_t>{0, 0, 1, 1}));
    EXPECT_EQ(rel2, (std::vector<std::string>{"t0/s/a", "t0/s/b", "t1/s/a", "t1/s/b"}));
    EXPECT_EQ(par2, (std::vector<int64_t>{0, 0, 2, 2}));
    EXPECT_EQ(levels[1].rows[1].child_begin, -1);  // a FILE has no children
    EXPECT_EQ(levels[1].rows[2].child_begin, 2);
}

// --- parsing back
// ---------------------------------------------------------------------------------

TEST(CollectionParse, ReadsBothProviderShapesExtentAndExtensionsInOrder) {
    OrderedJson doc = format::parse_json_document(kGoldenDocument, "COLLECTION.json");
    CollectionInfo info = format::collection_info_from_json(doc, "COLLECTION.json", true);
    EXPECT_EQ(info.id, "demo_set");
    ASSERT_EQ(info.providers.size(), 2u);
    EXPECT_FALSE(info.providers[0].uses_provider_shape());
    EXPECT_EQ(info.providers[0].organization, "UV");
    EXPECT_TRUE(info.providers[1].uses_provider_shape());
    ASSERT_TRUE(info.providers[1].links.has_value());
    EXPECT_EQ((*info.providers[1].links)[0].at("rel"), "about");
    EXPECT_FALSE(info.curators.has_value());
    ASSERT_TRUE(info.extent.has_value());
    EXPECT_DOUBLE_EQ(info.extent->spatial[2], 2.35);
    ASSERT_TRUE(info.extent->temporal.has_value());
    EXPECT_EQ((*info.extent->temporal)[1], "2023-03-02T10:00:00.250000Z");
    ASSERT_EQ(info.extensions.size(), 4u);  // pit/field schema are not extensions
    EXPECT_EQ(info.extensions[0].first, "split:strategy");
    EXPECT_EQ(info.extensions[0].second, R"("random")");
    EXPECT_EQ(info.extensions[3].first, "empty");
}

TEST(CollectionParse, RoundTripGivesTheSameDocument) {
    Taco first = golden_taco();
    OrderedJson doc = OrderedJson::parse(kGoldenDocument);
    CollectionInfo info = format::collection_info_from_json(doc, "C.json", true);
    Taco second(first.root(), info);
    std::string text = format::dump_python_style(
        format::collection_json(second, metadata::build_level_tables(second)));
    EXPECT_EQ(text, kGoldenDocument);
}

TEST(CollectionParse, ANameOnlyProviderKeepsTheShapeItWasWrittenIn) {
    // tacotoolbox >= 0.22 writes Provider(name="x") as {name, roles: null, url: null, links: null};
    // read and written again it stays so. A bare {"name"} is the spec's classic shape, and null
    // provider keys beside classic fields do not make a mix.
    OrderedJson doc = OrderedJson::parse(R"({"id": "x", "dataset_version": "1", "description": "d",
        "licenses": ["CC-BY-4.0"], "tasks": ["other"], "providers": [
        {"name": "p", "roles": null, "url": null, "links": null}, {"name": "c"},
        {"name": "o", "organization": "org", "url": null}]})");
    CollectionInfo info = format::collection_info_from_json(doc, "C.json", false);
    ASSERT_EQ(info.providers.size(), 3u);
    EXPECT_TRUE(info.providers[0].uses_provider_shape());
    EXPECT_FALSE(info.providers[1].uses_provider_shape());
    EXPECT_FALSE(info.providers[2].uses_provider_shape());
    Taco taco(Tortilla({file("a")}), info);
    OrderedJson p = format::collection_json(taco, metadata::build_level_tables(taco))["providers"];
    EXPECT_EQ(p[0].dump(), R"({"name":"p","roles":null,"url":null,"links":null})");
    EXPECT_EQ(p[1].dump(), R"({"name":"c","organization":null,"email":null,"role":null})");
    EXPECT_EQ(p[2].dump(), R"({"name":"o","organization":"org","email":null,"role":null})");
}

TEST(CollectionParse, MissingRequiredKeyNamesSourceAndKey) {
    OrderedJson doc = OrderedJson::parse(R"({"id": "x", "dataset_version": "1", "description": "d",
        "licenses": [], "providers": [], "taco_version": "2.0.0"})");
    std::string msg = error_of<FormatError>(
        [&] { format::collection_info_from_json(doc, "my/COLLECTION.json", true); });
    EXPECT_TRUE(contains(msg, "my/COLLECTION.json")) << msg;
    EXPECT_TRUE(contains(msg, "required key 'tasks' is missing")) << msg;
    EXPECT_NO_THROW(format::collection_info_from_json(doc, "partial.json", false));
}

TEST(CollectionParse, WrongTypesAndMalformedJsonAreFormatErrors) {
    OrderedJson doc = OrderedJson::parse(R"({"licenses": "MIT"})");
    std::string msg =
        error_of<FormatError>([&] { format::collection_info_from_json(doc, "c.json", false); });
    EXPECT_TRUE(contains(msg, "c.json: key 'licenses' must be a list of strings")) << msg;

    OrderedJson bad_extent = OrderedJson::parse(R"({"extent": {"spatial": [1, 2, 3]}})");
    msg = error_of<FormatError>(
        [&] { format::collection_info_from_json(bad_extent, "c.json", false); });
    EXPECT_TRUE(contains(msg, "key 'extent.spatial' must be a list of 4 numbers")) << msg;

    msg = error_of<FormatError>([] { format::parse_json_document("{oops", "x.json"); });
    EXPECT_TRUE(contains(msg, "x.json: malformed JSON")) << msg;
    // Nothing at all (a TACO_HEADER slot of length 0) says so, not "unexpected end of input".
    msg = error_of<FormatError>([] { format::parse_json_document(" \n", "x.json"); });
    EXPECT_TRUE(contains(msg, "x.json: the JSON document is empty (2 bytes)")) << msg;

    msg = error_of<FormatError>(
        [] { format::collection_info_from_json(OrderedJson::array(), "a.json", false); });
    EXPECT_TRUE(contains(msg, "a.json: expected a JSON object")) << msg;
}

// Found by fuzz_collection: a hierarchy depth with more digits than stoul takes threw
// std::out_of_range out of load() instead of the SchemaError every other bad depth gets.
TEST(CollectionJson, AHierarchyDepthBeyondAnyIntegerIsASchemaError) {
    std::ifstream in(std::string(TACO_FIXTURES_DIR) +
                     "/../../fuzz/regressions/fuzz_collection/hierarchy-depth-overflow.json");
    const std::string doc{std::istreambuf_iterator<char>(in), {}};
    ASSERT_FALSE(doc.empty());
    std::string message;
    try {
        taco::format::read_collection_document(doc, "COLLECTION.json");
    } catch (const taco::SchemaError& e) {
        message = e.what();
    }
    EXPECT_NE(message.find("hierarchy depth 1222"), std::string::npos) << message;
    EXPECT_NE(message.find("out of range"), std::string::npos) << message;
}

TEST(CollectionJsonIntegers, IntegersWithin64BitsAndOtherNumbersPass) {
    for (const char* ok :
         {R"({"a": 9223372036854775807, "b": -9223372036854775808})",
          R"({"u": 18446744073709551615, "f": 1.5e300, "g": 12345678901234567890123.0})",
          R"({"s": "123456789012345678901234567890", "e": 1E30, "short": [1, 2, 3]})"}) {
        EXPECT_NO_THROW(format::refuse_inexact_integers(ok, "c.json")) << ok;
    }
}

TEST(CollectionJsonIntegers, AnIntegerBeyond64BitsIsRefusedWithItsPath) {
    auto message = [](const std::string& text) -> std::string {
        try {
            format::refuse_inexact_integers(text, "c.json");
        } catch (const SchemaError& e) {
            return e.what();
        }
        return "";
    };
    EXPECT_NE(message(R"({"big": 18446744073709551616})")
                  .find("c.json: 'big' is the integer 18446744073709551616, which does not fit "
                        "in 64 bits"),
              std::string::npos);
    EXPECT_NE(message(R"({"n": {"v": [1, "x", {"y": -9223372036854775809}]}})")
                  .find("'n.v[2].y' is the integer -9223372036854775809"),
              std::string::npos);
    EXPECT_NE(message("123456789012345678901234567890").find("c.json: the value is the integer"),
              std::string::npos);
}
