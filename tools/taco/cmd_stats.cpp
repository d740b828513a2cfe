// `taco stats DATASET --band 0,1,2 [--level N] [--id ID] [--json]`: band statistics pooled from
// `geotiff:stats` over the samples chosen (Dataset::band_stats; the same --bbox/--datetime/
// --where as `taco filter`, tested at --level).
#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "filter_options.hpp"
#include "output.hpp"
#include "taco/dataset.hpp"
#include "taco/errors.hpp"

namespace taco::cli {
namespace {

struct StatsArgs {
    std::string path, bands, id;
    FilterOptions filter;
    bool json = false;
};

std::vector<size_t> parse_bands(const std::string& text) {
    std::vector<size_t> out;
    std::stringstream in(text);
    std::string part;
    while (std::getline(in, part, ',')) {
        if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos ||
            part.size() > 9) {
            throw QueryError("--band '" + text + "': '" + part +
                             "' is not a band index (expected e.g. 0,1,2)");
        }
        out.push_back(std::stoul(part));
    }
    if (out.empty() || text.back() == ',') {
        throw QueryError("--band '" + text + "': expected band indices such as 0,1,2");
    }
    return out;
}

Json number(double v) {
    return std::isfinite(v) ? Json(v) : Json(nullptr);
}

std::string text(double v) {
    if (!std::isfinite(v)) return "null";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

int run_stats(const StatsArgs& a) {
    const std::vector<size_t> bands = parse_bands(a.bands);
    const std::vector<BandSummary> stats =
        a.filter.apply(load(a.path)).band_stats(bands, a.filter.level, a.id);
    if (a.json) {
        Json out = Json::array();
        for (const BandSummary& s : stats) {
            Json j;
            j["band"] = s.band;
            j["samples"] = s.samples;
            if (s.categorical) {
                j["categorical"] = s.probabilities;
            } else {
                for (auto [name, v] : {std::pair{"min", s.min},
                                       {"max", s.max},
                                       {"mean", s.mean},
                                       {"std", s.std},
                                       {"p25", s.p25},
                                       {"p50", s.p50},
                                       {"p75", s.p75},
                                       {"p95", s.p95}}) {
                    j[name] = number(v);
                }
            }
            out.push_back(std::move(j));
        }
        print_json(std::cout, out);
        return kExitOk;
    }
    for (const BandSummary& s : stats) {
        std::cout << "band " << s.band << " (" << s.samples << " samples)";
        if (s.categorical) {
            std::cout << " class probabilities:";
            for (double p : s.probabilities) std::cout << " " << text(p);
        } else {
            std::cout << " min " << text(s.min) << " max " << text(s.max) << " mean "
                      << text(s.mean) << " std " << text(s.std) << " p25 " << text(s.p25) << " p50 "
                      << text(s.p50) << " p75 " << text(s.p75) << " p95 " << text(s.p95);
        }
        std::cout << "\n";
    }
    return kExitOk;
}

}  // namespace

Command make_stats_command() {
    auto args = std::make_shared<StatsArgs>();
    Command c;
    c.add = [args](CLI::App& app) {
        CLI::App* sub = app.add_subcommand(
            "stats",
            "Band statistics pooled from geotiff:stats over the chosen samples "
            "(mean weighted by valid pixels, pooled std, percentiles of the mixture)");
        sub->add_option("path", args->path,
                        "Dataset: a .tacozip/.zip file, a FOLDER dataset directory or a "
                        "collection")
            ->required();
        sub->add_option("--band", args->bands, "Band indices, e.g. 0,1,2")->required();
        sub->add_option("--id", args->id,
                        "Only the descendants of this sample of level N-1 (at level 0: this "
                        "sample)");
        args->filter.add_to(sub,
                            "Level whose samples are pooled (default 0); --bbox/--datetime "
                            "test that level too");
        sub->add_flag("--json", args->json, "Print a JSON list, one object per band");
        return sub;
    };
    c.run = [args] { return run_read_command([&] { return run_stats(*args); }); };
    return c;
}

}  // namespace taco::cli
