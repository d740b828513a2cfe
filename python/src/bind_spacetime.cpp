// filter_bbox / filter_datetime (and the stats of src/stats/) for tacocore._core. The Python
// surface (argument forms, datetimes) lives in tacocore/_spacetime.py.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "metadata/spatial_extension.hpp"
#include "py_common.hpp"
#include "taco/dataset.hpp"
#include "taco/filters.hpp"
#include "taco/stats.hpp"

namespace taco::py {

using namespace nb::literals;

void bind_spacetime(nb::module_& m) {
    m.def(
        "filter_bbox",
        [](const Dataset& d, double minx, double miny, double maxx, double maxy,
           const std::string& geometry_col, size_t level, const std::string& crs) {
            GilRelease release;  // a cascade binds level views
            return d.filter_bbox(minx, miny, maxx, maxy, geometry_col, level, crs);
        },
        "dataset"_a, "minx"_a, "miny"_a, "maxx"_a, "maxy"_a, "geometry_col"_a = "auto",
        "level"_a = 0, "crs"_a = "EPSG:4326", "Dataset::filter_bbox (a new lazy view).");
    m.def(
        "filter_datetime",
        [](const Dataset& d, std::optional<int64_t> start_us, std::optional<int64_t> end_us,
           const std::string& time_col, size_t level) {
            GilRelease release;
            return d.filter_datetime(TimeRange{start_us, end_us}, time_col, level);
        },
        "dataset"_a, "start_us"_a.none(), "end_us"_a.none(), "time_col"_a = "auto", "level"_a = 0,
        "Dataset::filter_datetime over [start_us, end_us] (None = open).");
    m.def(
        "parse_time_range",
        [](const std::string& text) {
            const TimeRange r = parse_time_range(text);
            return std::make_pair(r.start_us, r.end_us);
        },
        "text"_a, "(start_us, end_us) of a STAC-style range; None for an open side.");
    m.def(
        "band_stats",
        [](const Dataset& d, const std::vector<size_t>& bands, size_t level,
           const std::string& id) {
            std::vector<BandSummary> stats;
            {
                GilRelease release;
                stats = d.band_stats(bands, level, id);
            }
            nb::list out;
            for (const BandSummary& s : stats) {
                nb::dict j;
                j["band"] = s.band;
                j["samples"] = s.samples;
                j["categorical"] = s.categorical;
                j["min"] = s.min;
                j["max"] = s.max;
                j["mean"] = s.mean;
                j["std"] = s.std;
                j["p25"] = s.p25;
                j["p50"] = s.p50;
                j["p75"] = s.p75;
                j["p95"] = s.p95;
                j["probabilities"] = s.probabilities;
                out.append(j);
            }
            return out;
        },
        "dataset"_a, "bands"_a, "level"_a = 0, "id"_a = "",
        "Dataset::band_stats: one dict per band (min, max, mean, std, p25..p95 or "
        "probabilities).");
    m.def("set_spatial_extension_path", &metadata::set_spatial_extension_path, "path"_a,
          "The spatial.duckdb_extension file ST_* functions in sql() are loaded from.");
    m.def("spatial_extension_path", &metadata::spatial_extension_path,
          "The spatial extension file sql() would load, or \"\" when none is installed.");
    m.def(
        "pooled_quantile",
        [](const std::vector<std::vector<double>>& rows, const std::vector<double>& weights,
           double q) {
            std::vector<StatsRow> in;
            for (size_t i = 0; i < rows.size() && i < weights.size(); ++i) {
                if (rows[i].size() != kContinuousStats)
                    throw nb::value_error("each row needs the 9 continuous values");
                in.push_back({&rows[i], weights[i]});
            }
            return pooled_quantile(in, q);
        },
        "rows"_a, "weights"_a, "q"_a, "taco::pooled_quantile (for tests and notebooks).");
}

}  // namespace taco::py
