// Extent auto-calculation from STAC / ISTAC centroids and times (spec §5.5.2, FORMAT.md §5.3),
// including the antimeridian, and the rule that a user-given extent is kept as given.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/extent.hpp"
#include "model/time_format.hpp"
#include "taco/collection.hpp"
#include "taco/errors.hpp"
#include "wkb_test_util.hpp"

using namespace taco;
using test::wkb_point;

namespace {

int64_t t(const std::string& iso) {
    auto v = model::parse_iso_utc(iso);
    if (!v) throw std::runtime_error("bad test time " + iso);
    return *v;
}

// A FILE with `prefix`centroid and `prefix`time_start.
Sample located(const std::string& id, double lon, double lat, const std::string& start,
               const std::string& prefix = "stac:") {
    Sample s = Sample::bytes(id, "x");
    s.set(prefix + "centroid", Value::binary(wkb_point(lon, lat)));
    s.set(prefix + "time_start", Value::timestamp(t(start)));
    return s;
}

CollectionInfo info() {
    CollectionInfo i;
    i.id = "extent_test";
    i.dataset_version = "1";
    i.description = "d";
    i.licenses = {"MIT"};
    i.tasks = {"other"};
    return i;
}

void expect_box(const Extent& e, double w, double s, double east, double n) {
    EXPECT_DOUBLE_EQ(e.spatial[0], w);
    EXPECT_DOUBLE_EQ(e.spatial[1], s);
    EXPECT_DOUBLE_EQ(e.spatial[2], east);
    EXPECT_DOUBLE_EQ(e.spatial[3], n);
}

void expect_temporal(const Extent& e, const std::string& start, const std::string& end) {
    ASSERT_TRUE(e.temporal.has_value());
    EXPECT_EQ((*e.temporal)[0], start);
    EXPECT_EQ((*e.temporal)[1], end);
}

// Root samples at the given longitudes (latitude 0, one day apart).
Tortilla at_longitudes(const std::vector<double>& lons) {
    std::vector<Sample> samples;
    for (size_t i = 0; i < lons.size(); ++i) {
        samples.push_back(located("p" + std::to_string(i), lons[i], 0.0, "2023-01-01"));
    }
    return Tortilla(samples);
}

}  // namespace

TEST(Extent, WithoutStacTheBoxIsGlobalAndTimeIsNull) {
    Sample s = Sample::bytes("a", "x");
    s.set("cloud_cover", Value(3.5));
    Tortilla root({s});
    Extent e = model::compute_extent(root);
    expect_box(e, -180.0, -90.0, 180.0, 90.0);
    EXPECT_FALSE(e.temporal.has_value());

    Taco taco(root, info());
    expect_box(taco.extent(), -180.0, -90.0, 180.0, 90.0);
    EXPECT_FALSE(taco.extent().temporal.has_value());
    EXPECT_FALSE(taco.info().extent.has_value());
}

TEST(Extent, CentroidWithoutTimeStartIsNotEnough) {
    Sample s = Sample::bytes("a", "x");
    s.set("stac:centroid", Value::binary(wkb_point(10, 20)));
    s.set("stac:time_end", Value::timestamp(t("2023-01-01")));
    Extent e = model::compute_extent(Tortilla({s}));
    expect_box(e, -180.0, -90.0, 180.0, 90.0);
    EXPECT_FALSE(e.temporal.has_value());
}

TEST(Extent, FromStacAtLevel0) {
    Tortilla root({located("paris", 2.35, 48.85, "2023-01-01T00:00:00Z"),
                   located("lima", -77.0, -12.0, "2023-03-02T00:00:00Z"),
                   located("tokyo", 139.7, 35.68, "2023-02-01T12:00:00Z")});
    Extent e = model::compute_extent(root);
    expect_box(e, -77.0, -12.0, 139.7, 48.85);
    expect_temporal(e, "2023-01-01T00:00:00Z", "2023-03-02T00:00:00Z");
    Taco taco(root, info());
    expect_box(taco.extent(), -77.0, -12.0, 139.7, 48.85);
}

TEST(Extent, FromStacAtLevel1Only) {
    auto tile = [](const std::string& id, double lon, double lat, const std::string& when) {
        Sample f = Sample::folder(id, Tortilla({located("img", lon, lat, when)}));
        f.set("region", Value("r"));
        return f;
    };
    Tortilla root({tile("t0", 10, 40, "2022-05-01"), tile("t1", 12, 42, "2022-06-01")});
    Extent e = model::compute_extent(root);
    expect_box(e, 10, 40, 12, 42);
    expect_temporal(e, "2022-05-01T00:00:00Z", "2022-06-01T00:00:00Z");
}

TEST(Extent, StacIsPreferredOverIstacAtTheSameLevel) {
    auto both = [](const std::string& id, double shift) {
        Sample s = located(id, 100 + shift, 10 + shift, "2001-01-01", "istac:");
        s.set("stac:centroid", Value::binary(wkb_point(-50 + shift, -20 + shift)));
        s.set("stac:time_start", Value::timestamp(t("2020-01-01") + static_cast<int64_t>(shift)));
        return s;
    };
    Extent e = model::compute_extent(Tortilla({both("a", 0), both("b", 1)}));
    expect_box(e, -50, -20, -49, -19);
    expect_temporal(e, "2020-01-01T00:00:00Z", "2020-01-01T00:00:00.000001Z");
}

TEST(Extent, IstacIsUsedWithoutStac) {
    Tortilla root(
        {located("a", 5, 6, "2019-01-01", "istac:"), located("b", 7, 8, "2019-02-01", "istac:")});
    Extent e = model::compute_extent(root);
    expect_box(e, 5, 6, 7, 8);
    expect_temporal(e, "2019-01-01T00:00:00Z", "2019-02-01T00:00:00Z");
}

TEST(Extent, TheFirstLevelWithCentroidsWinsEvenIfItIsIstac) {
    auto tile = [](const std::string& id, double lon) {
        Sample f = Sample::folder(id, Tortilla({located("img", 100, 50, "2030-01-01")}));
        f.set("istac:centroid", Value::binary(wkb_point(lon, 1)));
        f.set("istac:time_start", Value::timestamp(t("2010-01-01")));
        return f;
    };
    Extent e = model::compute_extent(Tortilla({tile("t0", 1), tile("t1", 2)}));
    expect_box(e, 1, 1, 2, 1);
    expect_temporal(e, "2010-01-01T00:00:00Z", "2010-01-01T00:00:00Z");
}

// The reference takes min/max of time_middle (here 2020-06-01 .. 2021-06-01), which leaves out
// half of the first and last intervals; tacocore covers every [time_start, time_end].
TEST(Extent, TemporalCoversEveryIntervalNotJustTheMiddles) {
    auto s = [](const std::string& id, const std::string& start, const std::string& middle,
                const std::string& end) {
        Sample x = located(id, 0, 0, start);
        x.set("stac:time_end", Value::timestamp(t(end)));
        x.set("stac:time_middle", Value::timestamp(t(middle)));
        return x;
    };
    Tortilla root({s("a", "2020-01-01", "2020-06-01", "2020-12-31"),
                   s("b", "2021-01-01", "2021-06-01", "2021-12-31")});
    expect_temporal(model::compute_extent(root), "2020-01-01T00:00:00Z", "2021-12-31T00:00:00Z");
}

TEST(Extent, AllNullTimeMiddleStillCoversStartToEnd) {
    auto s = [](const std::string& id, const std::string& start, const std::string& end) {
        Sample x = located(id, 0, 0, start);
        x.set("stac:time_end", Value::timestamp(t(end)));
        x.set("stac:time_middle", Value::null(DataType::timestamp()));
        return x;
    };
    Tortilla root({s("a", "2020-01-01", "2020-12-31"), s("b", "2021-01-01", "2021-12-31")});
    expect_temporal(model::compute_extent(root), "2020-01-01T00:00:00Z", "2021-12-31T00:00:00Z");
}

TEST(Extent, AllNullTimeStartFallsBackToTimeEnd) {
    auto s = [](const std::string& id, double lon, const std::string& end) {
        Sample x = Sample::bytes(id, "x");
        x.set("stac:centroid", Value::binary(wkb_point(lon, 0)));
        x.set("stac:time_start", Value::null(DataType::timestamp()));
        x.set("stac:time_end", Value::timestamp(t(end)));
        return x;
    };
    Extent e = model::compute_extent(Tortilla({s("a", 1, "2020-03-01"), s("b", 2, "2020-02-01")}));
    expect_box(e, 1, 0, 2, 0);
    expect_temporal(e, "2020-02-01T00:00:00Z", "2020-03-01T00:00:00Z");
}

TEST(Extent, NullCentroidsAndPaddingAreIgnored) {
    Sample no_place = Sample::bytes("c", "x");
    no_place.set("stac:centroid", Value::null(DataType::binary()));
    no_place.set("stac:time_start", Value::timestamp(t("2024-01-01")));
    TortillaOptions opt;
    opt.pad_to = 5;
    Tortilla root({located("a", -3, 4, "2023-01-01"), located("b", 3, -4, "2023-01-02"), no_place},
                  opt);
    ASSERT_EQ(root.size(), 5u);
    Extent e = model::compute_extent(root);
    expect_box(e, -3, -4, 3, 4);
    expect_temporal(e, "2023-01-01T00:00:00Z", "2024-01-01T00:00:00Z");
}

TEST(Extent, OnlyNullCentroidsKeepTheGlobalBoxButStillGiveTime) {
    Sample s = Sample::bytes("a", "x");
    s.set("stac:centroid", Value::null(DataType::binary()));
    s.set("stac:time_start", Value::timestamp(t("2024-01-01")));
    Extent e = model::compute_extent(Tortilla({s}));
    expect_box(e, -180, -90, 180, 90);
    expect_temporal(e, "2024-01-01T00:00:00Z", "2024-01-01T00:00:00Z");
}

TEST(Extent, SinglePointGivesADegenerateBox) {
    Extent e = model::compute_extent(Tortilla({located("a", 12.5, -33.25, "2023-01-01")}));
    expect_box(e, 12.5, -33.25, 12.5, -33.25);
}

// --- antimeridian
// ---------------------------------------------------------------------------------

TEST(ExtentAntimeridian, PointsAcrossTheLineGiveWestGreaterThanEast) {
    Extent e = model::compute_extent(at_longitudes({170.0, -170.0}));
    expect_box(e, 170.0, 0.0, -170.0, 0.0);
    EXPECT_GT(e.spatial[0], e.spatial[2]);
}

TEST(ExtentAntimeridian, ClusterAroundTheLineIsTheShortArc) {
    Extent e = model::compute_extent(at_longitudes({-179.0, 175.0, -175.0, 179.0}));
    expect_box(e, 175.0, 0.0, -175.0, 0.0);
}

TEST(ExtentAntimeridian, ClusterAwayFromTheLineIsNormal) {
    Extent e = model::compute_extent(at_longitudes({-10.0, 10.0, 0.0}));
    expect_box(e, -10.0, 0.0, 10.0, 0.0);
}

TEST(ExtentAntimeridian, PointsSpreadOverTheGlobeGiveNormalMinMax) {
    Extent e = model::compute_extent(at_longitudes({-150, -90, -30, 30, 90, 150}));
    expect_box(e, -150.0, 0.0, 150.0, 0.0);
    Extent f = model::compute_extent(at_longitudes({-120, -50, 0, 30, 100, 140}));
    expect_box(f, -120.0, 0.0, 140.0, 0.0);
}

TEST(ExtentAntimeridian, ValidatesAsACollectionExtent) {
    Taco taco(at_longitudes({170.0, -170.0}), info());
    CollectionInfo with_extent = info();
    with_extent.extent = taco.extent();
    EXPECT_NO_THROW(validate_collection(with_extent));
}

// --- ISO output
// -----------------------------------------------------------------------------------

TEST(Extent, TemporalShowsMicrosecondsOnlyWhenNonZero) {
    Tortilla root({located("a", 0, 0, "2023-01-01T00:00:00Z"),
                   located("b", 0, 0, "2023-01-01T10:20:30.000001Z")});
    expect_temporal(model::compute_extent(root), "2023-01-01T00:00:00Z",
                    "2023-01-01T10:20:30.000001Z");
}

// --- user extent
// ----------------------------------------------------------------------------------

TEST(Extent, UserGivenExtentIsKeptAsGiven) {
    CollectionInfo i = info();
    i.extent = Extent{{1.5, 2.5, 3.5, 4.5},
                      std::array<std::string, 2>{"2020-01-01", "2020-12-31T12:00:00+01:00"}};
    Tortilla root({located("a", 100, 50, "2023-01-01"), located("b", 110, 60, "2023-02-01")});
    Taco taco(root, i);
    expect_box(taco.extent(), 1.5, 2.5, 3.5, 4.5);
    expect_temporal(taco.extent(), "2020-01-01", "2020-12-31T12:00:00+01:00");
    ASSERT_TRUE(taco.info().extent.has_value());
    EXPECT_EQ(taco.info().extent->temporal, taco.extent().temporal);
}

TEST(Extent, UserGivenExtentWithoutTemporalStaysWithoutTemporal) {
    CollectionInfo i = info();
    i.extent = Extent{{-10, -10, 10, 10}, std::nullopt};
    Taco taco(Tortilla({located("a", 100, 50, "2023-01-01")}), i);
    expect_box(taco.extent(), -10, -10, 10, 10);
    EXPECT_FALSE(taco.extent().temporal.has_value());
}
