// `taco export DATASET OUTPUT [--where SQL] [--bbox W,S,E,N] [--datetime RANGE] [--format
// zip|folder]`: a subset as a new dataset (spec §7.3): the level-0 rows the conditions keep, with
// their whole subtrees. The filters are taco filter's own (filter_options.hpp).
#include <chrono>

#include "commands.hpp"
#include "dataset_output.hpp"
#include "filter_options.hpp"
#include "progress.hpp"
#include "taco/convert.hpp"
#include "taco/errors.hpp"

namespace taco::cli {
namespace {

struct ExportArgs {
    std::string dataset, output, query;
    FilterOptions filter;   // --where, --bbox, --datetime (and their --crs, --level, ...)
    DatasetOutputArgs out;  // --format, --overwrite, --json, --quiet
};

int run_export(const ExportArgs& a) {
    const auto start = std::chrono::steady_clock::now();
    Dataset ds = load(a.dataset);
    if (!a.query.empty()) ds = ds.sql(a.query);
    if (a.filter.any()) ds = a.filter.apply(ds);
    return write_dataset_output(
        a.out, [&](const ExportOptions& opts) { return export_dataset(ds, a.output, opts); },
        [](const ExportResult& r) {
            const uint64_t n = r.level_rows.empty() ? 0 : r.level_rows[0];
            return "exported " + std::to_string(n) + " sample" + (n == 1 ? "" : "s") + " (" +
                   std::to_string(r.files) + " files, " + human_bytes(r.sample_bytes) + ") to " +
                   r.path.string() + " (" + to_string(r.format) + ")";
        },
        start);
}

}  // namespace

Command make_export_command() {
    auto args = std::make_shared<ExportArgs>();
    Command c;
    c.add = [args](CLI::App& app) {
        CLI::App* sub = app.add_subcommand(
            "export", "Write the samples a condition keeps (with their subtrees) as a new dataset");
        sub->add_option("dataset", args->dataset,
                        "Dataset: .tacozip/.zip, FOLDER, .tacocat collection or a remote URL")
            ->required();
        sub->add_option("output", args->output,
                        "New dataset: .tacozip/.zip -> ZIP, anything else -> FOLDER")
            ->required();
        args->filter.add_to(sub,
                            "Level --bbox/--datetime test (default 0); N > 0 keeps the samples "
                            "with a matching descendant at level N");
        sub->add_option("--sql", args->query,
                        "A whole query over `data` choosing the level-0 rows (applied before "
                        "--where/--bbox/--datetime)");
        args->out.add_to(sub, "zip, folder or auto (by the output's name)");
        return sub;
    };
    c.run = [args] { return run_export(*args); };
    return c;
}

}  // namespace taco::cli
