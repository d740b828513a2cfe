// `taco tacocat PART... --output DIR [--format folder|file]`: the collection index of TACO ZIP
// parts, as the `.tacocat/` folder (default, what tacoreader reads) or the single file
// `__TACOCAT__` (spec §6.5). Prints the path written.
#include <iostream>

#include "commands.hpp"
#include "taco/tacocat.hpp"

namespace taco::cli {
namespace {

struct TacocatArgs {
    std::vector<std::string> parts;
    std::string output;
    std::string format = "folder";
};

int run_tacocat(const TacocatArgs& a) {
    const std::vector<std::filesystem::path> parts(a.parts.begin(), a.parts.end());
    const auto written = create_tacocat(parts, a.output, parse_tacocat_format(a.format));
    std::cout << written.string() << "\n";
    return kExitOk;
}

}  // namespace

Command make_tacocat_command() {
    auto args = std::make_shared<TacocatArgs>();
    Command c;
    c.add = [args](CLI::App& app) {
        CLI::App* sub = app.add_subcommand(
            "tacocat", "Write the collection index (.tacocat/ or __TACOCAT__) of TACO ZIP parts");
        sub->add_option("parts", args->parts, "The .tacozip parts, in order")->required();
        sub->add_option("-o,--output", args->output,
                        "Directory to write the index into (usually the parts' directory)")
            ->required();
        sub->add_option("--format", args->format,
                        "folder: .tacocat/ (read by tacoreader); file: the spec's __TACOCAT__")
            ->check(CLI::IsMember({"folder", "file"}));
        return sub;
    };
    c.run = [args] { return run_tacocat(*args); };
    return c;
}

}  // namespace taco::cli
