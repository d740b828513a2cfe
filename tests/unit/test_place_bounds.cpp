// The extent rule create (compute_extent) and export (kept_extent) share: which columns of a
// level give the extent (extent_columns) and how rows accumulate into a box (PlaceBounds).
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/extent.hpp"
#include "taco/value.hpp"
#include "wkb_test_util.hpp"

using namespace taco;
using model::ExtentColumns;
using model::PlaceBounds;
using test::wkb_box;
using test::wkb_point;

namespace {

ColumnType binary(const std::string& name) {
    return {name, DataType::binary()};
}
ColumnType text(const std::string& name) {
    return {name, DataType::string()};
}
ColumnType timestamp(const std::string& name) {
    return {name, DataType::timestamp()};
}

void expect_box(const std::optional<std::array<double, 4>>& got, std::array<double, 4> want) {
    ASSERT_TRUE(got.has_value());
    for (size_t i = 0; i < 4; ++i) EXPECT_NEAR((*got)[i], want[i], 1e-9) << "index " << i;
}

}  // namespace

TEST(ExtentColumns, StacWinsOverIstac) {
    const ExtentColumns c = model::extent_columns(
        {binary("istac:centroid"), timestamp("istac:time_start"), binary("stac:centroid"),
         timestamp("stac:time_start"), timestamp("stac:time_end")});
    EXPECT_EQ(c.prefix, "stac:");
    EXPECT_TRUE(c.has_centroid);
    EXPECT_FALSE(c.by_geometry);
    EXPECT_EQ(c.time_columns, (std::vector<std::string>{"stac:time_start", "stac:time_end"}));
}

TEST(ExtentColumns, TimeColumnsComeStartMiddleEnd) {
    const ExtentColumns c =
        model::extent_columns({timestamp("stac:time_end"), timestamp("stac:time_middle"),
                               binary("stac:centroid"), timestamp("stac:time_start")});
    EXPECT_EQ(c.time_columns,
              (std::vector<std::string>{"stac:time_start", "stac:time_middle", "stac:time_end"}));
}

TEST(ExtentColumns, IstacMayBePlacedByGeometryAlone) {
    const ExtentColumns c = model::extent_columns(
        {text("istac:crs"), binary("istac:geometry"), timestamp("istac:time_start")});
    EXPECT_EQ(c.prefix, "istac:");
    EXPECT_FALSE(c.has_centroid);
    EXPECT_TRUE(c.by_geometry);
}

TEST(ExtentColumns, GeometryWithoutCrsFallsBackToCentroids) {
    const ExtentColumns c = model::extent_columns(
        {binary("istac:geometry"), binary("istac:centroid"), timestamp("istac:time_start")});
    EXPECT_EQ(c.prefix, "istac:");
    EXPECT_TRUE(c.has_centroid);
    EXPECT_FALSE(c.by_geometry);
}

TEST(ExtentColumns, NoExtentWithoutPlaceTimeOrRightTypes) {
    // A place without time_start, a time without a place, and columns of the wrong type.
    EXPECT_EQ(model::extent_columns({binary("stac:centroid")}).prefix, "");
    EXPECT_EQ(model::extent_columns({timestamp("stac:time_start")}).prefix, "");
    EXPECT_EQ(model::extent_columns({text("stac:centroid"), timestamp("stac:time_start")}).prefix,
              "");
    EXPECT_EQ(model::extent_columns({binary("stac:centroid"), text("stac:time_start")}).prefix, "");
    // STAC has no geometry-only placement.
    EXPECT_EQ(model::extent_columns(
                  {text("stac:crs"), binary("stac:geometry"), timestamp("stac:time_start")})
                  .prefix,
              "");
    const ExtentColumns none = model::extent_columns({});
    EXPECT_EQ(none.prefix, "");
    EXPECT_FALSE(none.has_centroid);
    EXPECT_FALSE(none.by_geometry);
    EXPECT_TRUE(none.time_columns.empty());
}

TEST(PlaceBounds, EmptyWithoutAnyPlace) {
    PlaceBounds p;
    EXPECT_FALSE(p.bounds().has_value());
    p.add(std::nullopt, std::nullopt, std::nullopt);
    p.add(std::nullopt, std::nullopt, std::string_view("not wkb"));
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const std::string nan_point = wkb_point(nan, 1.0);
    p.add(std::nullopt, std::nullopt, nan_point);
    EXPECT_FALSE(p.bounds().has_value());
}

TEST(PlaceBounds, CentroidsGiveMinMax) {
    PlaceBounds p;
    const std::string a = wkb_point(10, 40), b = wkb_point(-3, 50), c = wkb_point(4, 45);
    p.add(std::nullopt, std::nullopt, a);
    p.add(std::nullopt, std::nullopt, b);
    p.add(std::nullopt, std::nullopt, c);
    expect_box(p.bounds(), {-3, 40, 10, 50});
}

TEST(PlaceBounds, CentroidsAroundTheAntimeridianCrossIt) {
    PlaceBounds p;
    const std::string east = wkb_point(179, -1), west = wkb_point(-179, 2);
    p.add(std::nullopt, std::nullopt, east);
    p.add(std::nullopt, std::nullopt, west);
    expect_box(p.bounds(), {179, -1, -179, 2});
}

TEST(PlaceBounds, FootprintCountsByItsBoundsNotItsCentroid) {
    PlaceBounds p;
    const std::string footprint = wkb_box(10, 20, 12, 24), centroid = wkb_point(11, 22);
    p.add(std::string_view("EPSG:4326"), footprint, centroid);
    expect_box(p.bounds(), {10, 20, 12, 24});
}

TEST(PlaceBounds, UnreadableFootprintFallsBackToCentroid) {
    PlaceBounds p;
    const std::string footprint = wkb_box(10, 20, 12, 24), centroid = wkb_point(11, 22);
    p.add(std::string_view("EPSG:4326"), std::string_view("not wkb"), centroid);
    p.add(std::string_view("not a crs"), footprint, centroid);
    expect_box(p.bounds(), {11, 22, 11, 22});
    // Without a crs the footprint is not read at all.
    p.add(std::nullopt, footprint, centroid);
    expect_box(p.bounds(), {11, 22, 11, 22});
}

TEST(PlaceBounds, FootprintsAndCentroidsMix) {
    PlaceBounds p;
    const std::string footprint = wkb_box(10, 20, 12, 24), far = wkb_point(-5, -30);
    p.add(std::string_view("EPSG:4326"), footprint, std::nullopt);
    p.add(std::nullopt, std::nullopt, far);
    expect_box(p.bounds(), {-5, -30, 12, 24});
}

TEST(PlaceBounds, ProjectedFootprintIsCarriedTo4326) {
    // UTM 33N, 500 km easting is the central meridian 15°E; 0..10 km north of the equator.
    PlaceBounds p;
    const std::string footprint = wkb_box(495000, 0, 505000, 10000);
    p.add(std::string_view("EPSG:32633"), footprint, std::nullopt);
    const auto b = p.bounds();
    ASSERT_TRUE(b.has_value());
    EXPECT_NEAR((*b)[0], 14.955, 0.01);
    EXPECT_NEAR((*b)[1], 0.0, 1e-6);
    EXPECT_NEAR((*b)[2], 15.045, 0.01);
    EXPECT_NEAR((*b)[3], 0.0904, 0.001);
}

TEST(PlaceBounds, BoxesAcrossTheAntimeridianMergeByTheArcRule) {
    PlaceBounds place;
    place.add_box({170, -10, -170, 10});
    place.add_box({-175, -30, -160, -5});
    const auto b = place.bounds();
    ASSERT_TRUE(b);
    EXPECT_EQ(*b, (std::array<double, 4>{170, -30, -160, 10}));
}
