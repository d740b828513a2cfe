// `taco migrate V1_FILE OUTPUT`: a legacy Tortilla 0.5 / TACO 0.2 file as a TACO 2.0 dataset
// (issue 16), sample bytes copied unchanged, every v1 field mapped (docs/USER-GUIDE.md "Legacy v1
// datasets").
#include <chrono>

#include "commands.hpp"
#include "dataset_output.hpp"
#include "progress.hpp"
#include "taco/errors.hpp"
#include "taco/legacy.hpp"

namespace taco::cli {
namespace {

struct MigrateArgs {
    std::string input, output;
    DatasetOutputArgs out;  // --format, --overwrite, --json, --quiet
};

int run_migrate(const MigrateArgs& a) {
    const auto start = std::chrono::steady_clock::now();
    return write_dataset_output(
        a.out, [&](const ExportOptions& opts) { return migrate(a.input, a.output, opts); },
        [&](const ExportResult& r) {
            return "migrated " + a.input + " to " + r.path.string() + " (" + to_string(r.format) +
                   ", " + std::to_string(r.files) + " files, " + human_bytes(r.sample_bytes) + ")";
        },
        start);
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
        args->out.add_to(sub, "zip, folder or auto");
        return sub;
    };
    c.run = [args] { return run_migrate(*args); };
    return c;
}

}  // namespace taco::cli
