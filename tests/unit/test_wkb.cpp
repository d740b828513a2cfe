// Minimal WKB reading: points and bounding boxes in both byte orders, ISO Z/M/ZM codes, EWKB
// flags and SRID, nested multi-geometries, and malformed input.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/wkb.hpp"

using taco::model::wkb_bounds;
using taco::model::wkb_point;

namespace {

// Writes WKB in one byte order.
class Wkb {
  public:
    explicit Wkb(bool little_endian = true) : le_(little_endian) {}

    Wkb& header(uint32_t type) {
        out_.push_back(le_ ? '\x01' : '\x00');
        return u32(type);
    }
    Wkb& u32(uint32_t v) {
        unsigned char c[4];
        std::memcpy(c, &v, 4);  // the test machine is little endian (x86-64)
        if (!le_) std::swap(c[0], c[3]), std::swap(c[1], c[2]);
        out_.append(reinterpret_cast<char*>(c), 4);
        return *this;
    }
    Wkb& f64(double v) {
        unsigned char c[8];
        std::memcpy(c, &v, 8);
        if (!le_)
            for (int i = 0; i < 4; ++i) std::swap(c[i], c[7 - i]);
        out_.append(reinterpret_cast<char*>(c), 8);
        return *this;
    }
    Wkb& xy(double x, double y) { return f64(x).f64(y); }
    Wkb& ring(const std::vector<std::pair<double, double>>& pts) {
        u32(static_cast<uint32_t>(pts.size()));
        for (auto [x, y] : pts) xy(x, y);
        return *this;
    }
    Wkb& raw(const std::string& bytes) {
        out_ += bytes;
        return *this;
    }
    const std::string& str() const { return out_; }

  private:
    bool le_;
    std::string out_;
};

std::string point(double x, double y, bool le = true) {
    return Wkb(le).header(1).xy(x, y).str();
}

std::string square(double x0, double y0, double x1, double y1, bool le = true) {
    return Wkb(le).header(3).u32(1).ring({{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}, {x0, y0}}).str();
}

void expect_box(const std::optional<taco::model::Box2>& b, double min_x, double min_y, double max_x,
                double max_y) {
    ASSERT_TRUE(b.has_value());
    EXPECT_DOUBLE_EQ(b->min_x, min_x);
    EXPECT_DOUBLE_EQ(b->min_y, min_y);
    EXPECT_DOUBLE_EQ(b->max_x, max_x);
    EXPECT_DOUBLE_EQ(b->max_y, max_y);
}

}  // namespace

TEST(WkbPoint, LittleEndian) {
    std::string w = point(1.5, -2.25);
    ASSERT_EQ(w.size(), 21u);
    auto p = wkb_point(w);
    ASSERT_TRUE(p.has_value());
    EXPECT_DOUBLE_EQ(p->x, 1.5);
    EXPECT_DOUBLE_EQ(p->y, -2.25);
    expect_box(wkb_bounds(w), 1.5, -2.25, 1.5, -2.25);
}

TEST(WkbPoint, BigEndian) {
    std::string w = point(-77.0, 48.85, false);
    EXPECT_EQ(w[0], '\x00');
    EXPECT_EQ(w.substr(1, 4), std::string("\x00\x00\x00\x01", 4));
    auto p = wkb_point(w);
    ASSERT_TRUE(p.has_value());
    EXPECT_DOUBLE_EQ(p->x, -77.0);
    EXPECT_DOUBLE_EQ(p->y, 48.85);
}

TEST(WkbPoint, IsoZPointReadsXAndY) {
    std::string w = Wkb().header(1001).xy(3, 4).f64(1000).str();
    auto p = wkb_point(w);
    ASSERT_TRUE(p.has_value());
    EXPECT_DOUBLE_EQ(p->x, 3);
    EXPECT_DOUBLE_EQ(p->y, 4);
    expect_box(wkb_bounds(w), 3, 4, 3, 4);
}

TEST(WkbPoint, IsoMAndZmPoints) {
    EXPECT_TRUE(wkb_point(Wkb().header(2001).xy(1, 2).f64(9).str()).has_value());
    std::string zm = Wkb().header(3001).xy(1, 2).f64(9).f64(8).str();
    auto p = wkb_point(zm);
    ASSERT_TRUE(p.has_value());
    EXPECT_DOUBLE_EQ(p->x, 1);
    EXPECT_DOUBLE_EQ(p->y, 2);
    // Without the 4th coordinate a ZM point is truncated.
    EXPECT_FALSE(wkb_bounds(zm.substr(0, zm.size() - 8)).has_value());
}

TEST(WkbPoint, EwkbWithSrid) {
    std::string w = Wkb().header(0x20000001u).u32(4326).xy(10, 20).str();
    auto p = wkb_point(w);
    ASSERT_TRUE(p.has_value());
    EXPECT_DOUBLE_EQ(p->x, 10);
    EXPECT_DOUBLE_EQ(p->y, 20);
    std::string be = Wkb(false).header(0x20000001u).u32(4326).xy(-10, -20).str();
    auto q = wkb_point(be);
    ASSERT_TRUE(q.has_value());
    EXPECT_DOUBLE_EQ(q->x, -10);
    EXPECT_DOUBLE_EQ(q->y, -20);
}

TEST(WkbPoint, EwkbZFlagWithSrid) {
    std::string w = Wkb().header(0xA0000001u).u32(4326).xy(7, 8).f64(100).str();
    auto p = wkb_point(w);
    ASSERT_TRUE(p.has_value());
    EXPECT_DOUBLE_EQ(p->x, 7);
    EXPECT_DOUBLE_EQ(p->y, 8);
}

TEST(WkbPoint, NonPointsAndEmptyPointsGiveNothing) {
    EXPECT_FALSE(wkb_point(square(0, 0, 1, 1)).has_value());
    const double nan = std::numeric_limits<double>::quiet_NaN();
    std::string empty = point(nan, nan);
    EXPECT_FALSE(wkb_point(empty).has_value());
    EXPECT_FALSE(wkb_bounds(empty).has_value());
}

TEST(WkbBounds, Polygon) {
    std::string w = Wkb().header(3).u32(1).ring({{2, 1}, {5, 1}, {4, 7}, {-1, 3}, {2, 1}}).str();
    expect_box(wkb_bounds(w), -1, 1, 5, 7);
}

TEST(WkbBounds, PolygonWithAHoleUsesAllRings) {
    std::string w = Wkb(false)
                        .header(3)
                        .u32(2)
                        .ring({{0, 0}, {10, 0}, {10, 10}, {0, 10}, {0, 0}})
                        .ring({{2, 2}, {3, 2}, {3, 3}, {2, 2}})
                        .str();
    expect_box(wkb_bounds(w), 0, 0, 10, 10);
}

TEST(WkbBounds, EwkbPolygonWithSridAndZ) {
    Wkb w;
    w.header(0xA0000003u).u32(4326).u32(1).u32(4);
    for (auto [x, y] : std::vector<std::pair<double, double>>{{1, 1}, {3, 1}, {3, 4}, {1, 1}}) {
        w.xy(x, y).f64(-500);  // z must not leak into the box
    }
    expect_box(wkb_bounds(w.str()), 1, 1, 3, 4);
}

TEST(WkbBounds, MultiPolygonIsTheUnion) {
    std::string w = Wkb().header(6).u32(2).raw(square(0, 0, 1, 1)).raw(square(5, -3, 6, 2)).str();
    expect_box(wkb_bounds(w), 0, -3, 6, 2);
}

TEST(WkbBounds, MultiPolygonWithMixedByteOrders) {
    std::string w = Wkb(false)
                        .header(6)
                        .u32(2)
                        .raw(square(-20, -10, -15, -5, true))
                        .raw(square(1, 2, 3, 4, false))
                        .str();
    expect_box(wkb_bounds(w), -20, -10, 3, 4);
}

TEST(WkbBounds, LineStringMultiPointAndCollection) {
    std::string line = Wkb().header(2).ring({{0, 5}, {2, -1}, {4, 3}}).str();
    expect_box(wkb_bounds(line), 0, -1, 4, 5);
    std::string multipoint = Wkb().header(4).u32(2).raw(point(-1, -1)).raw(point(1, 2)).str();
    expect_box(wkb_bounds(multipoint), -1, -1, 1, 2);
    std::string collection = Wkb().header(7).u32(2).raw(line).raw(multipoint).str();
    expect_box(wkb_bounds(collection), -1, -1, 4, 5);
}

TEST(WkbBounds, EmptyGeometriesGiveNothing) {
    EXPECT_FALSE(wkb_bounds(Wkb().header(3).u32(0).str()).has_value());
    EXPECT_FALSE(wkb_bounds(Wkb().header(6).u32(0).str()).has_value());
}

TEST(WkbMalformed, TruncatedBytesGiveNothing) {
    std::string p = point(1, 2);
    for (size_t n = 0; n < p.size(); ++n) {
        EXPECT_FALSE(wkb_point(p.substr(0, n)).has_value()) << n;
        EXPECT_FALSE(wkb_bounds(p.substr(0, n)).has_value()) << n;
    }
    std::string sq = square(0, 0, 1, 1);
    for (size_t n : {size_t{9}, size_t{13}, sq.size() - 1}) {
        EXPECT_FALSE(wkb_bounds(sq.substr(0, n)).has_value()) << n;
    }
    std::string multi = Wkb().header(6).u32(2).raw(square(0, 0, 1, 1)).str();  // 1 of 2 parts
    EXPECT_FALSE(wkb_bounds(multi).has_value());
}

TEST(WkbMalformed, HugeCountsDoNotReadPastTheEnd) {
    std::string w = Wkb().header(2).u32(0xFFFFFFFFu).xy(1, 2).str();
    EXPECT_FALSE(wkb_bounds(w).has_value());
}

TEST(WkbMalformed, BadByteOrderOrTypeGivesNothing) {
    std::string p = point(1, 2);
    p[0] = '\x02';
    EXPECT_FALSE(wkb_point(p).has_value());
    EXPECT_FALSE(wkb_bounds(p).has_value());
    EXPECT_FALSE(wkb_bounds(Wkb().header(8).u32(0).str()).has_value());
    EXPECT_FALSE(wkb_bounds(Wkb().header(0).xy(1, 2).str()).has_value());
}

TEST(WkbMalformed, SridFlagWithoutSridIsTruncated) {
    std::string w = Wkb().header(0x20000001u).str();
    EXPECT_FALSE(wkb_point(w).has_value());
}
