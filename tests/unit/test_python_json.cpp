// Python's JSON dialect in COLLECTION.json (model/python_json.hpp): NaN, Infinity and -Infinity
// read as doubles wherever a value may stand, never inside strings, and written back the same way.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "format/collection_json.hpp"
#include "format/collection_parse.hpp"
#include "model/python_json.hpp"
#include "taco/errors.hpp"

namespace {

using taco::format::OrderedJson;
using taco::format::parse_json_document;

TEST(PythonJson, TokensOutsideStringsBecomeDoubles) {
    const OrderedJson doc = parse_json_document(
        R"({"a": NaN, "b": "NaN", "c": [Infinity, -Infinity, 1.5], "d": "x\"NaN", "NaN": {"e": -Infinity}})",
        "test");
    EXPECT_TRUE(std::isnan(doc["a"].get<double>()));
    EXPECT_EQ(doc["b"], "NaN");
    EXPECT_EQ(doc["c"][0].get<double>(), INFINITY);
    EXPECT_EQ(doc["c"][1].get<double>(), -INFINITY);
    EXPECT_EQ(doc["c"][2].get<double>(), 1.5);
    EXPECT_EQ(doc["d"], "x\"NaN");
    EXPECT_EQ(doc["NaN"]["e"].get<double>(), -INFINITY);
}

TEST(PythonJson, WrittenBackAsPythonWritesThem) {
    const OrderedJson doc = parse_json_document(R"({"a": NaN, "b": [Infinity, -Infinity]})", "t");
    EXPECT_EQ(taco::format::dump_python_style(doc),
              "{\n    \"a\": NaN,\n    \"b\": [\n        Infinity,\n        -Infinity\n    ]\n}");
    EXPECT_EQ(taco::format::dump_compact(doc), R"({"a":NaN,"b":[Infinity,-Infinity]})");
    EXPECT_TRUE(taco::model::has_non_finite(doc));
    EXPECT_FALSE(taco::model::has_non_finite(parse_json_document(R"({"a": [1.5, "NaN"]})", "t")));
}

TEST(PythonJson, TextWithoutTokensIsUntouched) {
    std::string text = R"({"a": "Infinity and NaN", "b": 1})";
    EXPECT_FALSE(taco::model::mark_non_finite_tokens(text));
    EXPECT_EQ(text, R"({"a": "Infinity and NaN", "b": 1})");
}

TEST(PythonJson, ADocumentSpellingTheMarkerIsLeftToTheParser) {
    // The marker cannot be told from the document's own string: the token stays, and is an error.
    const std::string text = R"({"a": "\u0000tacocore:NaN", "b": NaN})";
    std::string copy = text;
    EXPECT_FALSE(taco::model::mark_non_finite_tokens(copy));
    EXPECT_THROW(parse_json_document(text, "t"), taco::FormatError);
    // Other malformed text is still an error naming the document.
    try {
        parse_json_document(R"({"a": Nan})", "COLLECTION.json");
        FAIL();
    } catch (const taco::FormatError& e) {
        EXPECT_NE(std::string(e.what()).find("COLLECTION.json: malformed JSON"), std::string::npos);
    }
}

}  // namespace
