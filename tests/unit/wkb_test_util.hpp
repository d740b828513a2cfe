// WKB builders for the unit tests (little endian, 2-D): the bytes a stac:centroid or
// istac:geometry column holds.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace taco::test {

/// A WKB point.
inline std::string wkb_point(double x, double y) {
    std::string b(21, '\0');
    b[0] = 1;
    const uint32_t type = 1;
    std::memcpy(&b[1], &type, 4);
    std::memcpy(&b[5], &x, 8);
    std::memcpy(&b[13], &y, 8);
    return b;
}

/// A WKB polygon of one ring.
inline std::string wkb_polygon(const std::vector<std::pair<double, double>>& ring) {
    std::string b(13, '\0');
    b[0] = 1;
    const uint32_t type = 3, rings = 1, count = static_cast<uint32_t>(ring.size());
    std::memcpy(&b[1], &type, 4);
    std::memcpy(&b[5], &rings, 4);
    std::memcpy(&b[9], &count, 4);
    for (auto [x, y] : ring) {
        b.append(reinterpret_cast<const char*>(&x), 8);
        b.append(reinterpret_cast<const char*>(&y), 8);
    }
    return b;
}

/// The WKB polygon of the box [w, e] x [s, n].
inline std::string wkb_box(double w, double s, double e, double n) {
    return wkb_polygon({{w, s}, {e, s}, {e, n}, {w, n}, {w, s}});
}

}  // namespace taco::test
