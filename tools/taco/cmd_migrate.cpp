// `taco migrate V1_FILE OUTPUT`: a legacy Tortilla 0.5 / TACO 0.2 file as a TACO 2.0 dataset
// (issue 16), sample bytes copied unchanged, every v1 field mapped (docs/USER-GUIDE.md "Legacy v1
// datasets").
#include <chrono>
#include <iostream>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "progress.hpp"
#include "taco/errors.hpp"
#include "taco/legacy.hpp"

namespace taco::cli {
namespace {

struct MigrateArgs {
    std::string input, output, format = "auto";
    bool overwrite = false, json = false, quiet = false;
};

int run_migrate(const MigrateArgs& a) {
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
    const ExportResult r = migrate(a.input, a.output, opts);
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
        std::cout << j.dump() << "\n";
    } else if (!a.quiet) {
        std::cout << "migrated " << a.input << " to " << r.path.string() << " ("
                  << to_string(r.format) << ", " << r.files << " files, "
                  << human_bytes(r.sample_bytes) << ") in " << seconds << " s\n";
    }
    return kExitOk;
}

}  // namespace

Command make_migrate_command() {
    auto args = std::make_shared<MigrateArgs>();
    Command c;
    c.add = [args](CLI::App& app) {
        CLI::App* sub = app.add_subcommand(
            "migrate",
            "Rewrite a legacy v1 file (.tortilla, .taco, multi-part) as a TACO 2.0 ZIP or FOLDER");
        sub->add_option("input", args->input,
                        "v1 file: .tortilla or .taco, or any .NNNN.part. file of a split one "
                        "(local or remote)")
            ->required();
        sub->add_option("output", args->output,
                        "New TACO 2.0 dataset: ZIP for a .tacozip/.zip name, FOLDER otherwise "
                        "(or --format)")
            ->required();
        sub->add_option("--format", args->format, "zip, folder or auto")
            ->check(CLI::IsMember({"auto", "zip", "folder"}));
        sub->add_flag("--overwrite", args->overwrite,
                      "Replace an existing output dataset (once the new one is complete)");
        sub->add_flag("--json", args->json, "Print the result as JSON");
        sub->add_flag("-q,--quiet", args->quiet, "Print nothing on success");
        return sub;
    };
    c.run = [args] { return run_migrate(*args); };
    return c;
}

}  // namespace taco::cli
