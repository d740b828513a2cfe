// `taco convert IN OUT`: zip2folder / folder2zip (spec §7.4), lossless both ways.
#include <chrono>

#include "commands.hpp"
#include "dataset_output.hpp"
#include "progress.hpp"
#include "taco/convert.hpp"
#include "taco/errors.hpp"

namespace taco::cli {
namespace {

struct ConvertArgs {
    std::string input, output;
    DatasetOutputArgs out;  // --format, --overwrite, --json, --quiet
};

int run_convert(const ConvertArgs& a) {
    const auto start = std::chrono::steady_clock::now();
    return write_dataset_output(
        a.out, [&](const ExportOptions& opts) { return convert_dataset(a.input, a.output, opts); },
        [&](const ExportResult& r) {
            return "converted " + a.input + " to " + r.path.string() + " (" + to_string(r.format) +
                   ", " + std::to_string(r.files) + " files, " + human_bytes(r.sample_bytes) + ")";
        },
        start);
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
        args->out.add_to(sub, "zip, folder or auto");
        return sub;
    };
    c.run = [args] { return run_convert(*args); };
    return c;
}

}  // namespace taco::cli
