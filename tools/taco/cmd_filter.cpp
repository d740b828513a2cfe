// `taco filter DATASET [--bbox W,S,E,N] [--datetime RANGE] [--level N] [--where SQL]`: the
// level-0 samples chosen by place, time and/or a SQL condition (Dataset::filter_bbox,
// Dataset::filter_datetime, sql()); prints them as `taco sql` prints rows.
#include <iostream>

#include "commands.hpp"
#include "filter_options.hpp"
#include "output.hpp"
#include "taco/dataset.hpp"
#include "taco/errors.hpp"

namespace taco::cli {
namespace {

struct FilterArgs {
    std::string path;
    FilterOptions filter;
    bool json = false, csv = false;
};

int run_filter(const FilterArgs& a) {
    if (!a.filter.any()) {
        throw QueryError("taco filter: give at least one of --bbox, --datetime, --where");
    }
    const DataFrame df = a.filter.apply(load(a.path)).data();
    if (a.json) {
        print_json_frame(std::cout, df);
    } else if (a.csv) {
        print_csv(std::cout, df);
    } else {
        print_table(std::cout, df);
    }
    return kExitOk;
}

}  // namespace

Command make_filter_command() {
    auto args = std::make_shared<FilterArgs>();
    Command c;
    c.add = [args](CLI::App& app) {
        CLI::App* sub = app.add_subcommand(
            "filter",
            "The level-0 samples chosen by place (--bbox), time (--datetime) and/or a "
            "SQL condition (--where)");
        sub->add_option("path", args->path,
                        "Dataset: a .tacozip/.zip file, a FOLDER dataset directory or a "
                        "collection")
            ->required();
        args->filter.add_to(sub,
                            "Level --bbox/--datetime test (default 0); N > 0 keeps the samples "
                            "with a matching descendant at level N (cascade)");
        auto* json = sub->add_flag("--json", args->json, "Print a JSON list of row objects");
        sub->add_flag("--csv", args->csv, "Print CSV")->excludes(json);
        return sub;
    };
    c.run = [args] { return run_read_command([&] { return run_filter(*args); }); };
    return c;
}

}  // namespace taco::cli
