// filter_bbox / filter_datetime on the C++ Dataset: time parsing, the exact box test in the
// geometry's CRS, cascades and their navigation, and every bad input the issue lists. The
// Python suite (tests/python/test_spacetime.py) checks the answers against shapely/pyproj.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "reader_test_util.hpp"
#include "spatial/box_predicate.hpp"
#include "taco/filters.hpp"

using namespace taco;
using namespace taco::test;

namespace {

std::vector<std::string> ids_of(const DataFrame& df) {
    std::vector<std::string> out;
    const size_t col = *df.column_index("id");
    for (size_t r = 0; r < df.rows(); ++r) out.emplace_back(df.get_string(r, col));
    return out;
}

using Strings = std::vector<std::string>;

// WKB of a little-endian polygon with one ring.
std::string wkb_polygon(const std::vector<std::pair<double, double>>& ring) {
    std::string b;
    auto u32 = [&](uint32_t v) { b.append(reinterpret_cast<const char*>(&v), 4); };
    auto f64 = [&](double v) { b.append(reinterpret_cast<const char*>(&v), 8); };
    b.push_back(1);
    u32(3);
    u32(1);
    u32(static_cast<uint32_t>(ring.size()));
    for (auto [x, y] : ring) {
        f64(x);
        f64(y);
    }
    return b;
}

std::string wkb_point(double x, double y) {
    std::string b;
    b.push_back(1);
    uint32_t t = 1;
    b.append(reinterpret_cast<const char*>(&t), 4);
    b.append(reinterpret_cast<const char*>(&x), 8);
    b.append(reinterpret_cast<const char*>(&y), 8);
    return b;
}

}  // namespace

TEST(TimeRange, ParsesInstantsToMicroseconds) {
    EXPECT_EQ(parse_instant_us("1970-01-01"), 0);
    EXPECT_EQ(parse_instant_us("1970-01-01T00:00:00.000001Z"), 1);
    EXPECT_EQ(parse_instant_us("2023-01-01T00:00:00Z"), 1672531200LL * 1000000);
    EXPECT_EQ(parse_instant_us("2023-01-01T02:00:00+02:00"), 1672531200LL * 1000000);
    EXPECT_EQ(parse_instant_us("2023-01-01 00:00"), 1672531200LL * 1000000);
    EXPECT_EQ(parse_instant_us("2023-01-01", true), 1672617600LL * 1000000 - 1);
    EXPECT_EQ(parse_instant_us("1969-12-31T23:59:59.5Z"), -500000);
    EXPECT_EQ(format_instant_us(1672531200LL * 1000000 + 7), "2023-01-01T00:00:00.000007Z");
    EXPECT_EQ(format_instant_us(-500000), "1969-12-31T23:59:59.500000Z");
    // The extremes of int64 (DuckDB's timestamp range) and years before 1 CE, as ISO 8601 writes
    // them: a sign and at least four digits.
    EXPECT_EQ(format_instant_us(INT64_MAX), "294247-01-10T04:00:54.775807Z");
    EXPECT_EQ(format_instant_us(INT64_MIN), "-290308-12-21T19:59:05.224192Z");
    EXPECT_EQ(format_instant_us(-62198755200LL * 1000000), "-0001-01-01T00:00:00Z");
}

TEST(TimeRange, ParsesRangesOpenSidesAndDays) {
    TimeRange r = parse_time_range("2023-01-01/2023-01-31");
    EXPECT_EQ(*r.start_us, parse_instant_us("2023-01-01"));
    EXPECT_EQ(*r.end_us, parse_instant_us("2023-02-01") - 1);  // the whole last day
    r = parse_time_range("../2023-01-01T00:00:00Z");
    EXPECT_FALSE(r.start_us);
    EXPECT_EQ(*r.end_us, parse_instant_us("2023-01-01"));
    r = parse_time_range("2023-01-01/..");
    EXPECT_FALSE(r.end_us);
    r = parse_time_range("2023-03-02");
    EXPECT_EQ(*r.end_us - *r.start_us, 86400LL * 1000000 - 1);
}

TEST(TimeRange, RefusesMalformedAndReversed) {
    for (const char* bad : {"", "..", "../..", "2023-13-01", "2023-02-30", "2023-1-1",
                            "2023-01-01T25:00", "2023-01-01T10:00:00.1234567Z", "yesterday",
                            "2023-01-01/2023-01-02/2023-01-03", "2023-01-01Tx"}) {
        EXPECT_THROW(parse_time_range(bad), QueryError) << bad;
    }
    try {
        parse_time_range("2023-02-01/2023-01-01");
        FAIL();
    } catch (const QueryError& e) {
        EXPECT_NE(std::string(e.what()).find("reversed"), std::string::npos);
    }
}

TEST(BoxPredicate, ExactInTheGeometrysOwnCrs) {
    using spatial::BBox;
    using spatial::BoxPredicate;
    // A triangle whose bounding box touches the box corner but whose shape does not.
    const std::string triangle = wkb_polygon({{0, 0}, {10, 0}, {0, 10}, {0, 0}});
    EXPECT_TRUE(*BoxPredicate({1, 1, 2, 2}, "EPSG:4326", "EPSG:4326").intersects(triangle));
    EXPECT_FALSE(*BoxPredicate({8, 8, 9, 9}, "EPSG:4326", "EPSG:4326").intersects(triangle));
    // Boundaries count.
    EXPECT_TRUE(*BoxPredicate({10, 0, 11, 1}, "EPSG:4326", "EPSG:4326").intersects(triangle));
    // A UTM 30N point near Valencia (-0.375, 39.47): the box is carried into UTM.
    const std::string valencia = wkb_point(726000, 4372000);
    EXPECT_TRUE(
        *BoxPredicate({-0.5, 39.3, -0.2, 39.6}, "EPSG:4326", "EPSG:32630").intersects(valencia));
    EXPECT_FALSE(
        *BoxPredicate({2.2, 48.7, 2.5, 49.0}, "EPSG:4326", "EPSG:32630").intersects(valencia));
    // Antimeridian: a box from 170E to 170W holds 179.5E and 179.5W, not 0.
    BoxPredicate crossing({170, -10, -170, 10}, "EPSG:4326", "EPSG:4326");
    EXPECT_TRUE(*crossing.intersects(wkb_point(179.5, 0)));
    EXPECT_TRUE(*crossing.intersects(wkb_point(-179.5, 0)));
    EXPECT_FALSE(*crossing.intersects(wkb_point(0, 0)));
    // A geometry written past 180 (175..185) meets a box at -178.
    EXPECT_TRUE(
        *BoxPredicate({-179, -1, -178, 1}, "EPSG:4326", "EPSG:4326")
             .intersects(wkb_polygon({{175, -1}, {185, -1}, {185, 1}, {175, 1}, {175, -1}})));
    // Not WKB.
    EXPECT_FALSE(BoxPredicate({0, 0, 1, 1}, "EPSG:4326", "EPSG:4326").intersects("nope"));
    EXPECT_THROW(BoxPredicate({0, 0, 1, 1}, "EPSG:999999", "EPSG:4326"), QueryError);
}

TEST(FilterBbox, FlatFixtureBothContainers) {
    for (const std::string& path : {kFlatFolder, kFlatZip}) {
        Dataset ds = load(path);
        // sample_0 Valencia, sample_1 Paris, sample_2 New York, sample_3 Tokyo, sample_4 Lima.
        EXPECT_EQ(ids_of(ds.filter_bbox(-10, 35, 5, 50).data()), (Strings{"sample_0", "sample_1"}));
        EXPECT_EQ(ds.filter_bbox(-10, 35, 5, 50).count(), 2u);
        // The same box in Web Mercator.
        EXPECT_EQ(ids_of(ds.filter_bbox(-1113194.9, 4163881.1, 556597.5, 6446275.8, "auto", 0,
                                        "EPSG:3857")
                             .data()),
                  (Strings{"sample_0", "sample_1"}));
        // A centroid column by name; chains with sql() both ways and with filter_datetime.
        Dataset chained = ds.sql("SELECT * FROM data WHERE id <> 'sample_0'")
                              .filter_bbox(-10, 35, 5, 50, "istac:centroid")
                              .filter_datetime("2023-01-15/..");
        EXPECT_EQ(ids_of(chained.data()), (Strings{"sample_1"}));
        EXPECT_EQ(ids_of(chained.sql("SELECT * FROM data WHERE id = 'sample_1'").data()),
                  (Strings{"sample_1"}));
    }
}

TEST(FilterDatetime, FlatFixture) {
    Dataset ds = load(kFlatZip);  // 2023-01-01, 01-31, 03-02, 04-01, 05-01 at midnight
    EXPECT_EQ(ids_of(ds.filter_datetime("2023-01-31").data()), (Strings{"sample_1"}));
    EXPECT_EQ(ids_of(ds.filter_datetime("2023-01-01/2023-01-31").data()),
              (Strings{"sample_0", "sample_1"}));
    EXPECT_EQ(ids_of(ds.filter_datetime("../2023-01-30T23:59:59.999999Z").data()),
              (Strings{"sample_0"}));
    EXPECT_EQ(ds.filter_datetime("2023-04-01T00:00:00.000001Z/..").count(), 1u);  // µs matter
    TimeRange r;
    r.start_us = parse_instant_us("2023-03-02");
    EXPECT_EQ(ids_of(ds.filter_datetime(r).data()), (Strings{"sample_2", "sample_3", "sample_4"}));
}

TEST(FilterCascade, KeepsParentsAndPrunesNavigation) {
    for (const std::string& path : {kNestedFolder}) {
        Dataset ds = load(path);
        // Level-1 items in New York: americas/item_0 and americas/item_2.
        Dataset ny = ds.filter_bbox(-74.5, 40, -73.5, 41, "auto", 1);
        const DataFrame roots = ny.data();
        EXPECT_EQ(ids_of(roots), (Strings{"americas"}));
        EXPECT_EQ(ids_of(frame_of(roots.read(0))), (Strings{"item_0", "item_2"}));
        // The cascade survives sql() and chains with a level-0 filter.
        EXPECT_EQ(ids_of(frame_of(ny.sql("SELECT * FROM data").data().read("americas"))),
                  (Strings{"item_0", "item_2"}));
        // Two cascades intersect: items of 2023-01-01 in NY.
        Dataset both = ny.filter_datetime("2023-01-01", "auto", 1);
        EXPECT_EQ(ids_of(frame_of(both.data().read(0))), (Strings{"item_0"}));
        // 2023-03-02 items: one per continent; Europe's is in Berlin.
        Dataset march = ds.filter_datetime("2023-03-02", "auto", 1);
        EXPECT_EQ(ids_of(march.data()), (Strings{"europe", "americas", "asia"}));
        EXPECT_EQ(ids_of(frame_of(march.data().read("asia"))), (Strings{"item_2"}));
        // Without a cascade every child shows.
        EXPECT_EQ(frame_of(ds.data().read("americas")).rows(), 3u);
    }
}

TEST(FilterBadInput, ClearQueryErrors) {
    Dataset ds = load(kFlatZip);
    auto expect_error = [](auto&& fn, const std::string& fragment) {
        try {
            fn();
            ADD_FAILURE() << "no error, expected: " << fragment;
        } catch (const QueryError& e) {
            EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
        }
    };
    const double nan = std::numeric_limits<double>::quiet_NaN();
    expect_error([&] { ds.filter_bbox(nan, 0, 1, 1); }, "not a finite number");
    expect_error([&] { ds.filter_bbox(0, 2, 1, 1); }, "miny > maxy");
    expect_error([&] { ds.filter_bbox(0, 0, 1, 100); }, "latitudes");
    expect_error([&] { ds.filter_bbox(10, 0, 5, 1, "auto", 0, "EPSG:3857"); }, "minx > maxx");
    expect_error([&] { ds.filter_bbox(0, 0, 1, 1, "auto", 0, "EPSG:999999"); }, "EPSG:999999");
    expect_error([&] { ds.filter_bbox(0, 0, 1, 1, "auto", 3); }, "level 3 does not exist");
    expect_error([&] { ds.filter_bbox(0, 0, 1, 1, "nope"); }, "column 'nope' not found");
    expect_error([&] { ds.filter_bbox(0, 0, 1, 1, "location"); }, "expected WKB");
    expect_error([&] { ds.sql("SELECT id FROM data").filter_bbox(0, 0, 1, 1); },
                 "the columns are: id");
    expect_error([&] { ds.filter_datetime("2023-02-01/2023-01-01"); }, "reversed");
    expect_error([&] { ds.filter_datetime("not-a-date"); }, "ISO 8601");
    expect_error([&] { ds.filter_datetime("2023", "cloud_cover"); }, "ISO 8601");
    expect_error([&] { ds.filter_datetime("2023-01-01", "cloud_cover"); }, "expected a timestamp");
    expect_error([&] { ds.sql("SELECT id, location FROM data").filter_datetime("2023-01-01"); },
                 "no time column");
    expect_error([&] { ds.filter_datetime("2023-01-01", "auto", 1); }, "level 1 does not exist");
    // Not WKB: found when the rows are fetched, naming column and sample.
    Dataset broken = ds.sql(
        "SELECT * REPLACE (CASE WHEN id = 'sample_2' THEN 'xx'::BLOB ELSE \"istac:geometry\" "
        "END AS \"istac:geometry\") FROM data");
    expect_error([&] { broken.filter_bbox(-180, -90, 180, 90).data(); }, "'sample_2'");
    // A geometry CRS PROJ does not know, per row.
    Dataset unknown = ds.sql("SELECT *, 'EPSG:999999' AS \"istac:crs\" FROM data");
    expect_error([&] { unknown.filter_bbox(-180, -90, 180, 90).count(); }, "EPSG:999999");
}
