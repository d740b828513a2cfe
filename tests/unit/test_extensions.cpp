// taco::ext: the STAC / ISTAC / Scaling / Split sample extensions — the reference's columns
// (names, order, types), centroids in EPSG:4326 (checked against values pyproj gives for the
// same points), the antimeridian, and bad input naming the sample and the field.
#include <gtest/gtest.h>
#include <ogr_geometry.h>
#include <ogr_spatialref.h>

#include <cstring>
#include <string>
#include <vector>

#include "ext/crs.hpp"
#include "ext/descriptions.hpp"
#include "ext/vertex_visitor.hpp"
#include "model/extent.hpp"
#include "model/time_format.hpp"
#include "model/wkb.hpp"
#include "taco/collection.hpp"
#include "taco/errors.hpp"
#include "taco/extensions.hpp"
#include "taco/tortilla.hpp"

using namespace taco;

namespace {

// Little-endian WKB polygon with one ring.
std::string polygon(const std::vector<std::pair<double, double>>& ring) {
    std::string b(1 + 4 + 4 + 4, '\0');
    b[0] = 1;
    uint32_t type = 3, rings = 1, n = static_cast<uint32_t>(ring.size());
    std::memcpy(&b[1], &type, 4);
    std::memcpy(&b[5], &rings, 4);
    std::memcpy(&b[9], &n, 4);
    for (auto [x, y] : ring) {
        b.append(reinterpret_cast<const char*>(&x), 8);
        b.append(reinterpret_cast<const char*>(&y), 8);
    }
    return b;
}

std::string box(double w, double s, double e, double n) {
    return polygon({{w, s}, {e, s}, {e, n}, {w, n}, {w, s}});
}

ext::Stac utm_stac() {
    ext::Stac s;
    s.crs = "EPSG:32633";
    s.tensor_shape = {3, 100, 200};
    s.geotransform = {500000.0, 10.0, 0.0, 4500000.0, 0.0, -10.0};
    s.time_start = 1'600'000'000'000'000;
    s.time_end = 1'600'000'100'000'003;
    return s;
}

const Value& field(const std::vector<Field>& f, const std::string& name) {
    for (const auto& x : f)
        if (x.name == name) return x.value;
    throw std::runtime_error("no field " + name);
}

// The message of the SchemaError `fn` throws (empty when it throws none).
template <class F>
std::string schema_error(F fn) {
    try {
        fn();
    } catch (const SchemaError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST(Extensions, StacColumnsAreTheReferencesInItsOrderAndTypes) {
    auto f = ext::fields(utm_stac(), "s0");
    std::vector<std::string> names, types;
    for (const auto& x : f) names.push_back(x.name), types.push_back(x.value.type().arrow_name());
    EXPECT_EQ(names, (std::vector<std::string>{"stac:crs", "stac:tensor_shape", "stac:geotransform",
                                               "stac:time_start", "stac:centroid", "stac:time_end",
                                               "stac:time_middle"}));
    EXPECT_EQ(types, (std::vector<std::string>{"string", "list<item: int64>", "list<item: double>",
                                               "timestamp[us]", "binary", "timestamp[us]",
                                               "timestamp[us]"}));
    // Floor of the midpoint, as Python's //.
    EXPECT_EQ(field(f, "stac:time_middle").as_int(), 1'600'000'050'000'001);
}

TEST(Extensions, StacCentroidMatchesPyproj) {
    auto f = ext::fields(utm_stac(), "s0");
    const std::string& wkb = field(f, "stac:centroid").as_string();
    ASSERT_EQ(wkb.size(), 21u);  // 2-D little-endian point, as shapely writes it
    auto pt = model::wkb_point(wkb);
    ASSERT_TRUE(pt);
    // pyproj: Transformer.from_crs("EPSG:32633", "EPSG:4326", always_xy=True)
    //   .transform(501000, 4499500) == (15.011827399184671, 40.646351515080156)
    EXPECT_NEAR(pt->x, 15.011827399184671, 1e-9);
    EXPECT_NEAR(pt->y, 40.646351515080156, 1e-9);
}

// The CRS input limits are spelled out for the `taco` program, which loads GDAL on first use and
// so cannot read GDAL's own array (src/gdal_lazy/): they must stay GDAL's, entry for entry.
TEST(Extensions, CrsInputLimitsAreGdals) {
    const char* const* gdal = OGRSpatialReference::SET_FROM_USER_INPUT_LIMITATIONS;
    size_t i = 0;
    for (; gdal[i] && taco::ext::detail::kCrsInputLimits[i]; ++i)
        EXPECT_STREQ(gdal[i], taco::ext::detail::kCrsInputLimits[i]) << i;
    EXPECT_EQ(gdal[i], nullptr);
    EXPECT_EQ(taco::ext::detail::kCrsInputLimits[i], nullptr);
}

// Every vertex of every geometry kind is visited once and moved in place, Z and M kept; an empty
// point stays empty (OGR counts one point for it).
TEST(Extensions, VisitVerticesMovesEveryVertexAndKeepsZAndM) {
    struct Case {
        std::string wkt, expected;
        size_t vertices;
    };
    const std::vector<Case> cases = {
        {"POINT (-170 1)", "POINT (190 1)", 1},
        {"POINT Z (-170 1 5)", "POINT Z (190 1 5)", 1},
        {"LINESTRING M (-170 1 7,10 2 8)", "LINESTRING M (190 1 7,10 2 8)", 2},
        {"POLYGON ZM ((-170 0 1 2,-160 0 3 4,-160 5 5 6,-170 0 1 2))",
         "POLYGON ZM ((190 0 1 2,200 0 3 4,200 5 5 6,190 0 1 2))", 4},
        {"MULTIPOLYGON (((-1 0,1 0,1 1,-1 0)),((5 5,-6 5,6 6,5 5)))",
         "MULTIPOLYGON (((359 0,1 0,1 1,359 0)),((5 5,354 5,6 6,5 5)))", 8},
        {"GEOMETRYCOLLECTION (POINT EMPTY,LINESTRING (-1 1,2 2))",
         "GEOMETRYCOLLECTION (POINT EMPTY,LINESTRING (359 1,2 2))", 2},
        {"COMPOUNDCURVE (CIRCULARSTRING (-1 0,0 1,1 0),(1 0,-2 0))",
         "COMPOUNDCURVE (CIRCULARSTRING (359 0,0 1,1 0),(1 0,358 0))", 5},
    };
    for (const auto& c : cases) {
        OGRGeometry* g = nullptr;
        ASSERT_EQ(OGRGeometryFactory::createFromWkt(c.wkt.c_str(), nullptr, &g), OGRERR_NONE)
            << c.wkt;
        size_t visits = 0;
        taco::ext::detail::visit_vertices(*g, [&](double& x, double&) {
            ++visits;
            if (x < 0) x += 360.0;
        });
        OGRWktOptions iso;  // ISO WKT, which writes Z and M
        iso.variant = wkbVariantIso;
        EXPECT_EQ(g->exportToWkt(iso), c.expected) << c.wkt;
        EXPECT_EQ(visits, c.vertices) << c.wkt;
        OGRGeometryFactory::destroyGeometry(g);
    }
}

TEST(Extensions, TimeMiddleFloorsNegativeMidpoints) {
    ext::Stac s = utm_stac();
    s.time_start = -3;
    s.time_end = 0;
    EXPECT_EQ(field(ext::fields(s, "a"), "stac:time_middle").as_int(), -2);
    s.time_end.reset();
    auto f = ext::fields(s, "a");
    EXPECT_TRUE(field(f, "stac:time_end").is_null());
    EXPECT_TRUE(field(f, "stac:time_middle").is_null());
    EXPECT_EQ(field(f, "stac:time_middle").type(), DataType::timestamp());  // typed null
}

TEST(Extensions, GeographicGridPastTheAntimeridianGetsAWrappedCentroid) {
    ext::Stac s = utm_stac();
    s.crs = "EPSG:4326";
    s.tensor_shape = {10, 20};
    s.geotransform = {179.5, 0.1, 0.0, 10.0, 0.0, -0.1};  // 179.5 .. 181.5, centre 180.5
    auto pt = model::wkb_point(field(ext::fields(s, "x"), "stac:centroid").as_string());
    ASSERT_TRUE(pt);
    EXPECT_NEAR(pt->x, -179.5, 1e-9);
    EXPECT_NEAR(pt->y, 9.5, 1e-9);
}

TEST(Extensions, StacBadInputNamesTheSampleAndField) {
    auto bad = [](auto mutate) {
        ext::Stac s = utm_stac();
        mutate(s);
        return schema_error([&] { ext::fields(s, "tile_7"); });
    };
    std::string m = bad([](ext::Stac& s) { s.crs = "EPSG:999999"; });
    EXPECT_NE(m.find("sample 'tile_7'"), std::string::npos) << m;
    EXPECT_NE(m.find("'stac:crs'"), std::string::npos) << m;
    m = bad([](ext::Stac& s) { s.geotransform = {1, 2, 3}; });
    EXPECT_NE(m.find("'stac:geotransform'"), std::string::npos) << m;
    EXPECT_NE(m.find("got 3"), std::string::npos) << m;
    m = bad([](ext::Stac& s) { s.geotransform = {0, 0, 0, 0, 0, 0}; });
    EXPECT_NE(m.find("singular"), std::string::npos) << m;
    m = bad([](ext::Stac& s) { s.tensor_shape = {3, -100, 200}; });
    EXPECT_NE(m.find("'stac:tensor_shape'"), std::string::npos) << m;
    EXPECT_NE(m.find("-100"), std::string::npos) << m;
    m = bad([](ext::Stac& s) { s.tensor_shape = {5}; });
    EXPECT_NE(m.find("at least 2"), std::string::npos) << m;
    m = bad([](ext::Stac& s) { s.time_end = *s.time_start - 1; });
    EXPECT_NE(m.find("'stac:time_end'"), std::string::npos) << m;
    EXPECT_NE(m.find("before time_start"), std::string::npos) << m;
    m = bad([](ext::Stac& s) { s.centroid = std::string("nope"); });
    EXPECT_NE(m.find("'stac:centroid'"), std::string::npos) << m;
}

TEST(Extensions, IstacColumnsAndCentroid) {
    ext::Istac i{"EPSG:4326", box(10, 20, 12, 24), 0, 10, std::nullopt, std::nullopt};
    auto f = ext::fields(i, "g");
    std::vector<std::string> names;
    for (const auto& x : f) names.push_back(x.name);
    EXPECT_EQ(names,
              (std::vector<std::string>{"istac:crs", "istac:geometry", "istac:time_start",
                                        "istac:time_end", "istac:time_middle", "istac:centroid"}));
    auto pt = model::wkb_point(field(f, "istac:centroid").as_string());
    ASSERT_TRUE(pt);
    EXPECT_DOUBLE_EQ(pt->x, 11.0);
    EXPECT_DOUBLE_EQ(pt->y, 22.0);
    EXPECT_EQ(field(f, "istac:time_middle").as_int(), 5);
}

TEST(Extensions, IstacFootprintAcrossTheAntimeridianHasItsCentroidThere) {
    // 170E .. 170W written with longitudes on both sides of ±180: the naive centroid is 0°.
    std::string across = polygon({{170, -5}, {-170, -5}, {-170, 5}, {170, 5}, {170, -5}});
    auto pt = model::wkb_point(ext::geometry_centroid("EPSG:4326", across, "a"));
    ASSERT_TRUE(pt);
    EXPECT_NEAR(std::abs(pt->x), 180.0, 1e-9);
    EXPECT_NEAR(pt->y, 0.0, 1e-9);
    // The same footprint in UTM zone 1 (projected: the centroid is planar, then carried over).
    auto b = ext::geometry_bounds_4326("EPSG:4326", across);
    ASSERT_TRUE(b);
    EXPECT_DOUBLE_EQ(b->west, 170.0);
    EXPECT_DOUBLE_EQ(b->east, -170.0);
}

TEST(Extensions, ProjectedFootprintOnTheAntimeridianKeepsItsSide) {
    // A square around x = 166021.44 m in UTM 1N: pyproj puts that easting at lon 179.99999997.
    std::string sq = box(156021.44, -10000, 176021.44, 10000);
    auto pt = model::wkb_point(ext::geometry_centroid("EPSG:32601", sq, "u"));
    ASSERT_TRUE(pt);
    EXPECT_NEAR(pt->x, 179.99999997235415, 1e-7);
    auto b = ext::geometry_bounds_4326("EPSG:32601", sq);
    ASSERT_TRUE(b);
    EXPECT_GT(b->west, b->east);  // crosses: west near +179.9, east near -179.9
    EXPECT_GT(b->west, 179.0);
    EXPECT_LT(b->east, -179.0);
}

TEST(Extensions, IstacBadInput) {
    std::string m = schema_error([] {
        ext::fields(ext::Istac{"EPSG:4326", "not wkb at all", 0, {}, {}, {}}, "s9");
    });
    EXPECT_NE(m.find("sample 's9'"), std::string::npos) << m;
    EXPECT_NE(m.find("'istac:geometry'"), std::string::npos) << m;
    m = schema_error([] {
        ext::fields(ext::Istac{"nonsense", box(0, 0, 1, 1), 0, {}, {}, {}}, "s9");
    });
    EXPECT_NE(m.find("'istac:crs'"), std::string::npos) << m;
    m = schema_error([] {
        ext::fields(ext::Istac{"EPSG:4326", box(0, 0, 1, 1), 5, 4, {}, {}}, "s9");
    });
    EXPECT_NE(m.find("'istac:time_end'"), std::string::npos) << m;
    m = schema_error([] {
        ext::fields(ext::Istac{"EPSG:4326", box(0, 0, 1, 1) + "xx", 0, {}, {}, {}}, "s9");
    });
    EXPECT_NE(m.find("trailing"), std::string::npos) << m;
}

TEST(Extensions, ScalingAndSplit) {
    auto f =
        ext::fields(ext::Scaling{false, {0.0001f}, {}, std::array<int32_t, 4>{0, 1, 2, 3}}, "s");
    EXPECT_EQ(field(f, "scaling:scale_factor").type(), DataType::float32());
    EXPECT_TRUE(field(f, "scaling:scale_offset").is_null());
    EXPECT_EQ(field(f, "scaling:scale_offset").type(), DataType::float32());
    EXPECT_EQ(field(f, "scaling:padding").type(), DataType::list(DataType::int32()));
    auto g = ext::fields(ext::Scaling{true, {1, 2}, {0, 0}, std::nullopt}, "s");
    EXPECT_EQ(field(g, "scaling:scale_factor").type(), DataType::list(DataType::float32()));
    // One offset for every band (tacotoolbox writes it as given), but not 3 factors to 2 offsets.
    auto one = ext::fields(ext::Scaling{true, {1, 2, 3}, {0.5f}, std::nullopt}, "s");
    EXPECT_EQ(field(one, "scaling:scale_offset").as_list().size(), 1u);
    EXPECT_NE(schema_error([] {
                  ext::fields(ext::Scaling{true, {1, 2, 3}, {0, 0}, std::nullopt}, "s");
              }).find("has 2 values but scale_factor has 3"),
              std::string::npos);
    EXPECT_NE(schema_error([] {
                  ext::fields(ext::Scaling{false, {0.0f}, {}, {}}, "s");
              }).find("0"),
              std::string::npos);
    EXPECT_EQ(ext::split_fields("test", "s")[0].value.as_string(), "test");
    EXPECT_NE(schema_error([] { ext::split_fields("dev", "s"); }).find("'split'"),
              std::string::npos);
    Sample s = Sample::bytes("a", "x");
    ext::extend_split(s, "train");
    ext::extend(s, utm_stac());
    EXPECT_EQ(s.fields().size(), 8u);
}

TEST(Extensions, ExtentUsesFootprintBoundsAndFullIntervals) {
    auto sample = [](const std::string& id, std::string geom, int64_t t0, int64_t t1) {
        Sample s = Sample::bytes(id, "x");
        ext::extend(s, ext::Istac{"EPSG:4326", std::move(geom), t0, t1, {}, {}});
        return s;
    };
    const int64_t day = 86'400'000'000;
    Tortilla root({sample("a", box(10, 20, 12, 24), 0, 10 * day),
                   sample("b", box(-5, -3, -1, 2), 20 * day, 30 * day)});
    Extent e = model::compute_extent(root);
    EXPECT_DOUBLE_EQ(e.spatial[0], -5);  // the footprints' bounds, not their centroids
    EXPECT_DOUBLE_EQ(e.spatial[1], -3);
    EXPECT_DOUBLE_EQ(e.spatial[2], 12);
    EXPECT_DOUBLE_EQ(e.spatial[3], 24);
    ASSERT_TRUE(e.temporal);
    EXPECT_EQ((*e.temporal)[0], "1970-01-01T00:00:00Z");
    EXPECT_EQ((*e.temporal)[1], "1970-01-31T00:00:00Z");
}

TEST(Extensions, ExtentOfFootprintsAcrossTheAntimeridian) {
    auto sample = [](const std::string& id, std::string geom) {
        Sample s = Sample::bytes(id, "x");
        ext::extend(s, ext::Istac{"EPSG:4326", std::move(geom), 0, {}, {}, {}});
        return s;
    };
    Tortilla root({sample("a", polygon({{175, 0}, {-178, 0}, {-178, 1}, {175, 1}, {175, 0}})),
                   sample("b", box(170, -2, 172, -1))});
    Extent e = model::compute_extent(root);
    EXPECT_DOUBLE_EQ(e.spatial[0], 170);
    EXPECT_DOUBLE_EQ(e.spatial[2], -178);
    EXPECT_DOUBLE_EQ(e.spatial[1], -2);
    EXPECT_DOUBLE_EQ(e.spatial[3], 1);
}

TEST(Extensions, LongitudeArcUnionsIntervals) {
    // A wide interval that does not cross keeps [min, max] even though its ends are close
    // across ±180.
    auto [w, e] = model::longitude_arc({{-170, 170}});
    EXPECT_DOUBLE_EQ(w, -170);
    EXPECT_DOUBLE_EQ(e, 170);
    std::tie(w, e) = model::longitude_arc({{170, -170}, {-175, -160}});
    EXPECT_DOUBLE_EQ(w, 170);
    EXPECT_DOUBLE_EQ(e, -160);
}

TEST(Extensions, FieldDescriptionsOnlyForAWholeExtension) {
    Sample s = Sample::bytes("a", "x");
    ext::extend(s, utm_stac());
    std::vector<ColumnType> full;
    for (const auto& f : s.fields()) full.push_back({f.name, f.value.type()});
    const std::string* d = ext::column_description("stac:centroid", full);
    ASSERT_TRUE(d);
    EXPECT_EQ(*d, "Center point in EPSG:4326 (WKB)");
    // A lone centroid (from a dict or a table): tacotoolbox writes no description either.
    std::vector<ColumnType> lone = {{"stac:centroid", DataType::binary()},
                                    {"stac:time_start", DataType::timestamp()}};
    EXPECT_EQ(ext::column_description("stac:centroid", lone), nullptr);
    EXPECT_EQ(ext::column_description("cloud", full), nullptr);
    EXPECT_NE(ext::column_description("split", {{"split", DataType::string()}}), nullptr);
}
