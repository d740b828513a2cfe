// TACO-level extensions in C++ (include/taco/extensions.hpp): OpticalData, Labels, Publications,
// SplitStrategy give exactly the COLLECTION.json keys tacotoolbox 0.26.9 gives (values, key order,
// nulls), against tests/fixtures/expected/taco_extensions_tacotoolbox.json written by tacotoolbox
// (make_taco_extensions.py beside it); the typed structs, the JSON arguments and bad input.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "taco/errors.hpp"
#include "taco/extensions.hpp"
#include "test_util.hpp"

namespace taco::ext {
namespace {

using OrderedJson = nlohmann::ordered_json;

const OrderedJson& expected() {
    static const OrderedJson doc = [] {
        std::ifstream in(std::string(TACO_FIXTURES_DIR) +
                         "/../expected/taco_extensions_tacotoolbox.json");
        std::stringstream text;
        text << in.rdbuf();
        return OrderedJson::parse(text.str());
    }();
    return doc;
}

// The keys as one ordered object, as they land in COLLECTION.json.
OrderedJson as_object(const CollectionFields& fields) {
    OrderedJson out = OrderedJson::object();
    for (const auto& [key, text] : fields) out[key] = OrderedJson::parse(text);
    return out;
}

TEST(TacoExtensions, EverySensorTableEqualsTacotoolbox) {
    ASSERT_EQ(supported_sensors().size(), 14u);
    for (const std::string& sensor : supported_sensors()) {
        SCOPED_TRACE(sensor);
        EXPECT_EQ(as_object(collection_fields(optical_data(sensor))),
                  expected().at("OpticalData:" + sensor));
    }
    EXPECT_EQ(as_object(collection_fields(optical_data("sentinel2msi[B02, B03,B04,B8A]"))),
              expected().at("OpticalData:sentinel2msi[B02,B03,B04,B8A]"));
}

TEST(TacoExtensions, LabelsPublicationsSplitStrategyEqualTacotoolbox) {
    Labels labels{{{"a", "0", std::nullopt}, {"b", "B", "bee"}}, "two classes"};
    EXPECT_EQ(as_object(collection_fields(labels)), expected().at("Labels"));
    Publications pubs{
        {{"10.1/x", "Someone 2024", std::nullopt}, {"10.2/y", "Other 2025", "the method"}}};
    EXPECT_EQ(as_object(collection_fields(pubs)), expected().at("Publications"));
    EXPECT_EQ(as_object(collection_fields(SplitStrategy{"stratified"})),
              expected().at("SplitStrategy"));
}

TEST(TacoExtensions, FromTacotoolboxArgumentsAsJson) {
    EXPECT_EQ(as_object(collection_fields_from_json(
                  "Labels", R"({"label_classes": [{"name": "a", "category": 0},
                                {"name": "b", "category": "B", "description": "bee"}],
                                "label_description": "two classes"})")),
              expected().at("Labels"));
    EXPECT_EQ(as_object(collection_fields_from_json(
                  "OpticalData", R"({"sensor": "sentinel2msi[B02,B03,B04,B8A]"})")),
              expected().at("OpticalData:sentinel2msi[B02,B03,B04,B8A]"));
    // Explicit bands: every field present, null when not given.
    const OrderedJson custom = as_object(collection_fields_from_json(
        "OpticalData",
        R"({"sensor": "custom", "bands": [{"name": "X", "center_wavelength": 500}]})"));
    EXPECT_EQ(custom.dump(),
              R"({"optical:sensor":"custom","optical:bands":[{"name":"X","index":null,)"
              R"("common_name":null,"description":null,"unit":null,"center_wavelength":500.0,)"
              R"("full_width_half_max":null}],"optical:num_bands":1})");
}

TEST(TacoExtensions, BadInputNamesTheExtensionAndField) {
    auto msg = [](auto fn) { return test::error_of<SchemaError>(fn); };
    EXPECT_TRUE(test::contains(msg([] { optical_data("hubble"); }), "unsupported sensor 'hubble'"));
    EXPECT_TRUE(test::contains(msg([] { optical_data("sentinel2msi[B02,B99]"); }), "B99"));
    EXPECT_TRUE(test::contains(msg([] {
                                   collection_fields(Labels{{{"a", "0", {}}, {"a", "1", {}}}, {}});
                               }),
                               "share the name 'a'"));
    EXPECT_TRUE(test::contains(msg([] {
                                   collection_fields(Labels{{{"a", "0", {}}, {"b", "0", {}}}, {}});
                               }),
                               "share the category '0'"));
    EXPECT_TRUE(test::contains(msg([] {
                                   collection_fields(Publications{{{"", "c", {}}}});
                               }),
                               "doi must be a non-empty string"));
    EXPECT_TRUE(test::contains(msg([] { collection_fields(SplitStrategy{"sometimes"}); }),
                               "SplitStrategy: strategy 'sometimes' is not one of"));
    const std::string file = msg([] {
        collection_fields_from_json("Labels", R"({"label_classes": [{"name": "a"}]})",
                                    "labels.json");
    });
    EXPECT_TRUE(test::contains(file, "labels.json")) << file;
    EXPECT_TRUE(test::contains(file, "category")) << file;
    EXPECT_TRUE(test::contains(msg([] { collection_fields_from_json("Labels", "[1, 2]"); }),
                               "expected a JSON object"));
    EXPECT_TRUE(test::contains(msg([] { collection_fields_from_json("Labels", "{nope"); }),
                               "not valid JSON"));
    EXPECT_TRUE(test::contains(msg([] { collection_fields_from_json("Optical", "{}"); }),
                               "unknown TACO extension 'Optical'"));
    EXPECT_TRUE(test::contains(
        msg([] { collection_fields_from_json("SplitStrategy", R"({"strategy": "x", "y": 1})"); }),
        "unknown field 'y'"));
}

TEST(TacoExtensions, AddingReplacesAKeyInPlace) {
    std::vector<std::pair<std::string, std::string>> keys = {{"split:strategy", "\"random\""},
                                                             {"other", "1"}};
    add_collection_fields(keys, collection_fields(SplitStrategy{"manual"}));
    ASSERT_EQ(keys.size(), 2u);
    EXPECT_EQ(keys[0].second, "\"manual\"");
    add_collection_fields(keys, collection_fields(Publications{{{"d", "c", {}}}}));
    EXPECT_EQ(keys.back().first, "publications");
}

}  // namespace
}  // namespace taco::ext
