// The public C++ API where a user's program misuses it (session 25's hunt): moved-from objects,
// a Tortilla moved into one Taco and then into another, and closed datasets naming the call
// that was refused.
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "reader_test_util.hpp"
#include "taco/card.hpp"
#include "taco/dataset.hpp"
#include "taco/errors.hpp"
#include "taco/tortilla.hpp"

using namespace taco;

namespace {

const std::string kFlat = std::string(TACO_FIXTURES_DIR) + "/tacoreader/zip/flat/flat.tacozip";

CollectionInfo info() {
    return test::test_collection("moved");
}

std::string closed_message(const std::function<void(const Dataset&)>& call) {
    Dataset ds = load(kFlat);
    ds.close();
    try {
        call(ds);
    } catch (const ClosedError& e) {
        return e.what();
    }
    return "no ClosedError";
}

}  // namespace

TEST(ApiEdges, AMovedFromTortillaMakesNoTacoAndNoFolder) {
    Tortilla t({Sample::bytes("a", "x")});
    const Taco first(std::move(t), info());
    EXPECT_THROW(Taco(std::move(t), info()), SchemaError);  // NOLINT(bugprone-use-after-move)
    EXPECT_THROW(Sample::folder("f", std::move(t)), SchemaError);
    EXPECT_EQ(first.root().size(), 1u);
}

TEST(ApiEdges, MovedFromFramesAndDatasetsStayUsable) {
    Dataset ds = load(kFlat);
    DataFrame df = ds.data();
    const DataFrame df2 = std::move(df);
    const Dataset ds2 = std::move(ds);
    // NOLINTBEGIN(bugprone-use-after-move): what a user may do, and must not crash
    EXPECT_EQ(df.rows(), df2.rows());
    EXPECT_EQ(ds.id(), ds2.id());
    EXPECT_EQ(ds.count(), 5u);
    ds.close();
    EXPECT_TRUE(ds2.closed());  // copies share the open dataset
    // NOLINTEND(bugprone-use-after-move)
}

TEST(ApiEdges, AClosedDatasetNamesTheRefusedCall) {
    EXPECT_NE(closed_message([](const Dataset& d) {
                  d.filter_datetime("2020-01-01/2021-01-01");
              }).find("filter_datetime() refused"),
              std::string::npos);
    EXPECT_NE(closed_message([](const Dataset& d) {
                  d.filter_bbox(0, 0, 1, 1);
              }).find("filter_bbox() refused"),
              std::string::npos);
    EXPECT_NE(closed_message([](const Dataset& d) {
                  dataset_card(d, CardFormat::Markdown);
              }).find("dataset_card() refused"),
              std::string::npos);
}

TEST(ApiEdges, LoadOptionsNoQueryCouldHaveAreRefusedAtLoad) {
    LoadOptions bad;
    bad.timeout = -1;
    EXPECT_THROW(load(kFlat, bad), QueryError);
    LoadOptions memory;
    memory.memory_limit = "banana";
    try {
        load(kFlat, memory);
        FAIL() << "loaded";
    } catch (const QueryError& e) {
        EXPECT_NE(std::string(e.what()).find("memory_limit 'banana' is not a size"),
                  std::string::npos)
            << e.what();
    }
}
