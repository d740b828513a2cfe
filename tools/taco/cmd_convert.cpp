// `taco convert IN OUT`: zip2folder / folder2zip (spec §7.4), lossless both ways.
#include <chrono>
#include <iostream>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "progress.hpp"
#include "taco/convert.hpp"
#include "taco/errors.hpp"

namespace taco::cli {
namespace {

struct ConvertArgs {
    std::string input, output, format = "auto";
    bool overwrite = false, json = false, quiet = false;
};

int run_convert(const ConvertArgs& a) {
    const auto start = std::chrono::steady_clock::now();
    ExportOptions opts;
    opts.format = a.format == "zip"      ? ContainerFormat::Zip
                  : a.format == "folder" ? ContainerFormat::Folder
                                         : ContainerFormat::Auto;
    opts.overwrite = a.overwrite;
    ProgressBar bar(!a.quiet && !a.json);
    if (bar.enabled()) {
        opts.progress = [&](const ExportProgress& p) {
            bar.update(p.bytes_done, p.bytes_total,
                       std::to_string(p.files_done) + "/" + std::to_string(p.files_total) +
                           " files, " + human_bytes(p.bytes_done));
        };
    }
    const ExportResult r = convert_dataset(a.input, a.output, opts);
    bar.finish();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (a.json) {
        nlohmann::ordered_json j;
        j["path"] = r.path.string();
        j["format"] = to_string(r.format);
        j["files"] = r.files;
        j["sample_bytes"] = r.sample_bytes;
        j["levels"] = r.level_rows;
        j["seconds"] = seconds;
        j["export_seconds"] = r.seconds;             // the export itself, without loading
        j["copy_seconds"] = r.copy_seconds;          // of which copying sample bytes
        j["copy_cpu_seconds"] = r.copy_cpu_seconds;  // CPU time of that copy
        std::cout << j.dump() << "\n";
    } else if (!a.quiet) {
        std::cout << "converted " << a.input << " to " << r.path.string() << " ("
                  << to_string(r.format) << ", " << r.files << " files, "
                  << human_bytes(r.sample_bytes) << ") in " << seconds << " s\n";
    }
    return kExitOk;
}

}  // namespace

Command make_convert_command() {
    auto args = std::make_shared<ConvertArgs>();
    Command c;
    c.add = [args](CLI::App& app) {
        CLI::App* sub = app.add_subcommand(
            "convert", "ZIP -> FOLDER or FOLDER -> ZIP, losslessly (zip2folder / folder2zip)");
        sub->add_option("input", args->input, "Dataset: .tacozip/.zip or FOLDER (local or remote)")
            ->required();
        sub->add_option("output", args->output,
                        "New dataset; by default the other container (a .tacozip/.zip name "
                        "always means ZIP)")
            ->required();
        sub->add_option("--format", args->format, "zip, folder or auto")
            ->check(CLI::IsMember({"auto", "zip", "folder"}));
        sub->add_flag("--overwrite", args->overwrite,
                      "Replace an existing output dataset (once the new one is complete)");
        sub->add_flag("--json", args->json, "Print the result as JSON");
        sub->add_flag("-q,--quiet", args->quiet, "Print nothing on success");
        return sub;
    };
    c.run = [args] { return run_convert(*args); };
    return c;
}

}  // namespace taco::cli
