#include "filter_options.hpp"

#include <cctype>
#include <cmath>
#include <sstream>
#include <vector>

#include "taco/errors.hpp"

namespace taco::cli {
namespace {

// "W,S,E,N" -> four finite numbers; QueryError naming the text otherwise.
std::vector<double> parse_bbox(const std::string& text) {
    std::vector<double> out;
    std::stringstream in(text);
    std::string part;
    while (std::getline(in, part, ',')) {
        size_t used = 0;
        double v = 0;
        try {
            v = std::stod(part, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        while (used < part.size() && std::isspace(static_cast<unsigned char>(part[used]))) ++used;
        if (used == 0 || used != part.size() || !std::isfinite(v)) {
            throw QueryError("--bbox '" + text + "': '" + part + "' is not a finite number");
        }
        out.push_back(v);
    }
    if (out.size() != 4 || text.back() == ',') {
        throw QueryError("--bbox '" + text + "': expected four numbers W,S,E,N");
    }
    return out;
}

}  // namespace

void FilterOptions::add_to(CLI::App* sub, const std::string& level_help) {
    sub->add_option("--bbox", bbox,
                    "W,S,E,N in --crs; exact intersection in each geometry's own CRS; W > E "
                    "crosses the antimeridian (geographic CRS)");
    sub->add_option("--crs", crs, "CRS of --bbox (default EPSG:4326)");
    sub->add_option("--geometry-col", geometry_col,
                    "Geometry column (default auto: istac:geometry, stac:centroid, "
                    "istac:centroid)");
    sub->add_option("--datetime", datetime,
                    "START/END, ../END, START/.. or one instant or day (ISO 8601; naive = UTC; "
                    "a day covers the whole day)");
    sub->add_option("--time-col", time_col,
                    "Time column (default auto: istac:time_start, stac:time_start)");
    sub->add_option("--level", level, level_help);
    sub->add_option("--where", where,
                    "SQL condition on the level-0 columns, e.g. \"cloud_cover < 10\"");
}

Dataset FilterOptions::apply(Dataset ds) const {
    if (!where.empty()) ds = ds.sql("SELECT * FROM data WHERE " + where);
    if (!bbox.empty()) {
        const std::vector<double> b = parse_bbox(bbox);
        ds = ds.filter_bbox(b[0], b[1], b[2], b[3], geometry_col, level, crs);
    }
    if (!datetime.empty()) ds = ds.filter_datetime(datetime, time_col, level);
    return ds;
}

}  // namespace taco::cli
