// `taco export DATASET OUTPUT [--where SQL] [--bbox W,S,E,N] [--datetime RANGE] [--format
// zip|folder]`: a subset as a new dataset (spec §7.3): the level-0 rows the conditions keep, with
// their whole subtrees. The filters are taco filter's own (filter_options.hpp).
#include <chrono>
#include <iostream>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "filter_options.hpp"
#include "progress.hpp"
#include "taco/convert.hpp"
#include "taco/errors.hpp"

namespace taco::cli {
namespace {

struct ExportArgs {
    std::string dataset, output, query, format = "auto";
    FilterOptions filter;  // --where, --bbox, --datetime (and their --crs, --level, ...)
    bool overwrite = false, json = false, quiet = false;
};

ContainerFormat parse_format(const std::string& f) {
    return f == "zip"      ? ContainerFormat::Zip
           : f == "folder" ? ContainerFormat::Folder
                           : ContainerFormat::Auto;
}

int run_export(const ExportArgs& a) {
    const auto start = std::chrono::steady_clock::now();
    Dataset ds = load(a.dataset);
    if (!a.query.empty()) ds = ds.sql(a.query);
    if (a.filter.any()) ds = a.filter.apply(ds);
    ExportOptions opts;
    opts.format = parse_format(a.format);
    opts.overwrite = a.overwrite;
    ProgressBar bar(!a.quiet && !a.json);
    if (bar.enabled()) {
        opts.progress = [&](const ExportProgress& p) {
            bar.update(p.bytes_done, p.bytes_total,
                       std::to_string(p.files_done) + "/" + std::to_string(p.files_total) +
                           " files, " + human_bytes(p.bytes_done));
        };
    }
    const ExportResult r = export_dataset(ds, a.output, opts);
    bar.finish();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (a.json) {
        nlohmann::ordered_json j;
        j["path"] = r.path.string();
        j["format"] = to_string(r.format);
        j["samples"] = r.level_rows.empty() ? 0 : r.level_rows[0];
        j["files"] = r.files;
        j["sample_bytes"] = r.sample_bytes;
        j["levels"] = r.level_rows;
        j["seconds"] = seconds;
        j["export_seconds"] = r.seconds;             // the export itself, without loading
        j["copy_seconds"] = r.copy_seconds;          // of which copying sample bytes
        j["copy_cpu_seconds"] = r.copy_cpu_seconds;  // CPU time of that copy
        std::cout << j.dump() << "\n";
    } else if (!a.quiet) {
        std::cout << "exported " << r.level_rows[0] << " sample"
                  << (r.level_rows[0] == 1 ? "" : "s") << " (" << r.files << " files, "
                  << human_bytes(r.sample_bytes) << ") to " << r.path.string() << " ("
                  << to_string(r.format) << ") in " << seconds << " s\n";
    }
    return kExitOk;
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
        sub->add_option("--format", args->format, "zip, folder or auto (by the output's name)")
            ->check(CLI::IsMember({"auto", "zip", "folder"}));
        sub->add_flag("--overwrite", args->overwrite,
                      "Replace an existing output dataset (once the new one is complete)");
        sub->add_flag("--json", args->json, "Print the result as JSON");
        sub->add_flag("-q,--quiet", args->quiet, "Print nothing on success");
        return sub;
    };
    c.run = [args] { return run_export(*args); };
    return c;
}

}  // namespace taco::cli
