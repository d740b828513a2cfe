// `taco create --stats`: the options that compute `geotiff:stats` for every FILE of the tree
// (include/taco/geotiff_stats.hpp), kept out of cmd_create.cpp.
#pragma once

#include <string>
#include <vector>

#include "taco/tortilla.hpp"

namespace CLI {
class App;
}

namespace taco::cli {

struct StatsArgs {
    bool stats = false;              // --stats
    std::vector<long long> classes;  // --stats-classes 0,1,2 (categorical; implies --stats)
    unsigned threads = 0;            // --stats-threads (0 = all cores)
    bool skip_unreadable = false;    // --stats-skip-unreadable
    bool wanted() const { return stats || !classes.empty(); }
};

void add_stats_options(CLI::App& sub, StatsArgs& args);

/// The tortilla with `geotiff:stats` on every FILE sample, drawing a progress bar when
/// `progress`; samples skipped under --stats-skip-unreadable are appended to `skipped`.
Tortilla apply_stats(const Tortilla& tortilla, const StatsArgs& args, bool progress,
                     std::vector<std::string>& skipped);

}  // namespace taco::cli
