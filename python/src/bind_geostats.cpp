// geotiff:stats for tacocore._core (include/taco/geotiff_stats.hpp). The tacotoolbox-shaped
// surface (GeotiffStats, add_geotiff_stats) lives in tacocore/_geostats.py.
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "py_common.hpp"
#include "taco/geotiff_stats.hpp"

namespace taco::py {

using namespace nb::literals;

namespace {

GeotiffStatsOptions options(bool categorical, const std::vector<long long>& class_values,
                            unsigned threads, bool skip_unreadable) {
    GeotiffStatsOptions o;
    o.categorical = categorical;
    o.class_values = class_values;
    o.threads = threads;
    o.skip_unreadable = skip_unreadable;
    return o;
}

}  // namespace

void bind_geostats(nb::module_& m) {
    m.def(
        "geotiff_stats",
        [](const Sample& s, bool categorical, const std::vector<long long>& class_values) {
            Value v;
            {
                GilRelease release;
                v = geotiff_stats(s, options(categorical, class_values, 1, false));
            }
            return from_value(v);
        },
        "sample"_a, "categorical"_a = false, "class_values"_a = std::vector<long long>{},
        "geotiff:stats of one FILE sample: [[float] per band] or None (no valid pixel).");
    m.def(
        "geotiff_stats_with_count",
        [](const Sample& s, bool categorical, const std::vector<long long>& class_values) {
            GeotiffStatsValues v;
            {
                GilRelease release;
                v = geotiff_stats_with_count(s, options(categorical, class_values, 1, false));
            }
            return std::make_pair(from_value(v.stats), from_value(v.valid_count));
        },
        "sample"_a, "categorical"_a = false, "class_values"_a = std::vector<long long>{},
        "(geotiff:stats, geotiff:stats_valid_count) of one FILE sample.");
    m.def(
        "set_geotiff_stats",
        [](nb::list samples, bool categorical, const std::vector<long long>& class_values,
           unsigned threads, bool skip_unreadable) {
            std::vector<Sample*> natives;
            for (nb::handle h : samples) natives.push_back(nb::cast<Sample*>(h));
            std::vector<const Sample*> view(natives.begin(), natives.end());
            GeotiffStatsResult r;
            {
                GilRelease release;
                r = geotiff_stats_many(
                    view, options(categorical, class_values, threads, skip_unreadable));
                for (size_t i = 0; i < natives.size(); ++i) {
                    if (!natives[i]->is_file()) continue;
                    natives[i]->set(kGeotiffStatsColumn, r.values[i]);
                    natives[i]->set(kGeotiffStatsValidCountColumn, r.valid_counts[i]);
                }
            }
            return r.skipped;
        },
        "samples"_a, "categorical"_a = false, "class_values"_a = std::vector<long long>{},
        "threads"_a = 0, "skip_unreadable"_a = false,
        "Sets geotiff:stats on every FILE sample of the list, on `threads` threads; returns the "
        "messages of samples skipped.");
    m.def(
        "tortilla_with_geotiff_stats",
        [](const Tortilla& t, bool categorical, const std::vector<long long>& class_values,
           unsigned threads, bool skip_unreadable) {
            GilRelease release;
            std::vector<std::string> skipped;
            Tortilla out = with_geotiff_stats(
                t, options(categorical, class_values, threads, skip_unreadable), &skipped);
            return std::make_pair(std::move(out), std::move(skipped));
        },
        "tortilla"_a, "categorical"_a = false, "class_values"_a = std::vector<long long>{},
        "threads"_a = 0, "skip_unreadable"_a = false,
        "with_geotiff_stats: (a copy of the tortilla with geotiff:stats on every FILE, skipped).");
}

}  // namespace taco::py
