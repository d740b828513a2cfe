#include "model/wkb.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace taco::model {
namespace {

class WkbCursor {
  public:
    explicit WkbCursor(std::string_view b) : b_(b) {}
    bool ok() const { return ok_; }

    bool u8(uint8_t& v) {
        if (!need(1)) return false;
        v = static_cast<uint8_t>(b_[pos_++]);
        return true;
    }
    bool u32(bool le, uint32_t& v) {
        if (!need(4)) return false;
        unsigned char c[4];
        std::memcpy(c, b_.data() + pos_, 4);
        pos_ += 4;
        v = le ? (c[0] | c[1] << 8 | c[2] << 16 | uint32_t(c[3]) << 24)
               : (c[3] | c[2] << 8 | c[1] << 16 | uint32_t(c[0]) << 24);
        return true;
    }
    bool f64(bool le, double& v) {
        if (!need(8)) return false;
        unsigned char c[8];
        std::memcpy(c, b_.data() + pos_, 8);
        pos_ += 8;
        if (!le) std::reverse(c, c + 8);
        std::memcpy(&v, c, 8);
        return true;
    }
    bool skip(size_t n) {
        if (!need(n)) return false;
        pos_ += n;
        return true;
    }

  private:
    bool need(size_t n) {
        if (pos_ + n > b_.size()) ok_ = false;
        return ok_;
    }
    std::string_view b_;
    size_t pos_ = 0;
    bool ok_ = true;
};

struct Header {
    bool le;
    uint32_t base;  // 1..7
    int dims;       // 2, 3 or 4
};

bool read_header(WkbCursor& c, Header& h) {
    uint8_t order;
    uint32_t code;
    if (!c.u8(order) || order > 1 || !c.u32(order == 1, code)) return false;
    h.le = order == 1;
    bool has_z = code & 0x80000000u, has_m = code & 0x40000000u;
    if (code & 0x20000000u) {  // EWKB SRID
        if (!c.skip(4)) return false;
    }
    code &= 0x0FFFFFFFu;
    h.base = code % 1000;
    uint32_t iso = code / 1000;  // 1 = Z, 2 = M, 3 = ZM
    has_z = has_z || iso == 1 || iso == 3;
    has_m = has_m || iso == 2 || iso == 3;
    h.dims = 2 + has_z + has_m;
    return h.base >= 1 && h.base <= 7;
}

struct Bounds {
    double min_x = std::numeric_limits<double>::infinity(), min_y = min_x;
    double max_x = -std::numeric_limits<double>::infinity(), max_y = max_x;
    void add(double x, double y) {
        if (std::isnan(x) || std::isnan(y)) return;  // empty points are encoded as NaN
        min_x = std::min(min_x, x), max_x = std::max(max_x, x);
        min_y = std::min(min_y, y), max_y = std::max(max_y, y);
    }
};

bool read_coords(WkbCursor& c, const Header& h, uint32_t n, Bounds& b) {
    for (uint32_t i = 0; i < n; ++i) {
        double x, y, extra;
        if (!c.f64(h.le, x) || !c.f64(h.le, y)) return false;
        for (int d = 2; d < h.dims; ++d)
            if (!c.f64(h.le, extra)) return false;
        b.add(x, y);
    }
    return true;
}

bool read_geometry(WkbCursor& c, Bounds& b, int nesting) {
    if (nesting > 32) return false;
    Header h;
    if (!read_header(c, h)) return false;
    uint32_t n, rings;
    switch (h.base) {
        case 1:
            return read_coords(c, h, 1, b);
        case 2:
            return c.u32(h.le, n) && read_coords(c, h, n, b);
        case 3:
            if (!c.u32(h.le, rings)) return false;
            for (uint32_t r = 0; r < rings; ++r)
                if (!c.u32(h.le, n) || !read_coords(c, h, n, b)) return false;
            return true;
        default:  // multi-geometries and collections hold complete WKB geometries
            if (!c.u32(h.le, n)) return false;
            for (uint32_t i = 0; i < n; ++i)
                if (!read_geometry(c, b, nesting + 1)) return false;
            return true;
    }
}

}  // namespace

std::optional<Point2> wkb_point(std::string_view wkb) {
    WkbCursor c(wkb);
    Header h;
    if (!read_header(c, h) || h.base != 1) return std::nullopt;
    double x, y;
    if (!c.f64(h.le, x) || !c.f64(h.le, y) || std::isnan(x) || std::isnan(y)) return std::nullopt;
    return Point2{x, y};
}

std::optional<Box2> wkb_bounds(std::string_view wkb) {
    WkbCursor c(wkb);
    Bounds b;
    if (!read_geometry(c, b, 0) || b.min_x > b.max_x) return std::nullopt;
    return Box2{b.min_x, b.min_y, b.max_x, b.max_y};
}

}  // namespace taco::model
