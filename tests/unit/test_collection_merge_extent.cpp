// The merged extent of a collection's parts (merge_collections, used by .tacocat, __TACOCAT__
// and `taco tacollection`): boxes across the antimeridian (west > east) stay covered.
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "collection/tacollection.hpp"

using namespace taco;
using format::OrderedJson;

namespace {

collection::PartCollection part(const std::string& name, std::array<double, 4> box) {
    OrderedJson doc = OrderedJson::object();
    doc["id"] = "c";
    doc["taco:pit_schema"] = {{"root", {{"n", 2}, {"type", "FILE"}}}};
    doc["taco:field_schema"] = {{"level0", OrderedJson::array({{"id", "string"}})}};
    doc["extent"] = {{"spatial", {box[0], box[1], box[2], box[3]}},
                     {"temporal", {"2020-01-01T00:00:00Z", "2020-02-01T00:00:00Z"}}};
    return {name + ".tacozip", name + ".tacozip", doc};
}

std::vector<double> spatial(const OrderedJson& merged) {
    return merged["extent"]["spatial"].get<std::vector<double>>();
}

}  // namespace

TEST(CollectionMergeExtent, PlainBoxesGiveTheirMinMax) {
    const auto merged =
        collection::merge_collections({part("a", {-10, 0, 10, 10}), part("b", {100, -20, 120, 5})});
    EXPECT_EQ(spatial(merged), (std::vector<double>{-10, -20, 120, 10}));
    EXPECT_EQ(merged["taco:pit_schema"]["root"]["n"], 4);
}

TEST(CollectionMergeExtent, TwoPartsAcrossTheAntimeridianStayAcrossIt) {
    // Fiji and Samoa: a min/max of the edges would give [-179, ..., 179], the whole world but
    // the Pacific where every sample is.
    const auto merged = collection::merge_collections(
        {part("fiji", {176, -20, -178, -15}), part("samoa", {-173, -15, -171, -13})});
    EXPECT_EQ(spatial(merged), (std::vector<double>{176, -20, -171, -13}));
}

TEST(CollectionMergeExtent, APartAcrossTheAntimeridianIsNotDropped) {
    // Before: min(170, 0) / max(-170, 10) gave [0, -10, 10, 10], which misses the Pacific part.
    const auto merged = collection::merge_collections(
        {part("pacific", {170, -10, -170, 10}), part("africa", {0, 0, 10, 10})});
    const auto box = spatial(merged);
    EXPECT_EQ(box, (std::vector<double>{-180, -10, 180, 10}));
}
