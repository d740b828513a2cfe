#include "create_stats.hpp"

#include <CLI/CLI.hpp>

#include "progress.hpp"
#include "taco/geotiff_stats.hpp"

namespace taco::cli {

void add_stats_options(CLI::App& sub, StatsArgs& args) {
    sub.add_flag("--stats", args.stats,
                 "Compute geotiff:stats (per band: min, max, mean, std, valid%, p25, p50, p75, "
                 "p95; exact) for every FILE sample, with GDAL on all cores");
    sub.add_option("--stats-classes", args.classes,
                   "Categorical geotiff:stats instead: per band, the share of each of these "
                   "class values, e.g. 0,1,2 (implies --stats)")
        ->delimiter(',');
    sub.add_option("--stats-threads", args.threads,
                   "Threads for --stats, each with its own GDAL dataset (0 = one per core)");
    sub.add_flag("--stats-skip-unreadable", args.skip_unreadable,
                 "A FILE GDAL cannot open gets a null geotiff:stats (and a warning) instead of "
                 "failing the create");
}

Tortilla apply_stats(const Tortilla& tortilla, const StatsArgs& args, bool progress,
                     std::vector<std::string>& skipped) {
    GeotiffStatsOptions opts;
    opts.categorical = !args.classes.empty();
    opts.class_values = args.classes;
    opts.threads = args.threads;
    opts.skip_unreadable = args.skip_unreadable;
    ProgressBar bar(progress);
    if (bar.enabled()) {
        opts.progress = [&](size_t done, size_t total) {
            bar.update(done, total,
                       "geotiff:stats " + std::to_string(done) + "/" + std::to_string(total));
        };
    }
    Tortilla out = with_geotiff_stats(tortilla, opts, &skipped);
    bar.finish();
    return out;
}

}  // namespace taco::cli
