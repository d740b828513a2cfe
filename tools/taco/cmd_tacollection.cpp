// `taco tacollection PART... --output DIR`: DIR/TACOLLECTION.json, the global description of
// TACO ZIP parts (spec §6.6): counts summed, extents merged, every part's extent in
// taco:sources. Prints the path written.
#include <iostream>

#include "commands.hpp"
#include "taco/tacocat.hpp"

namespace taco::cli {
namespace {

struct TacollectionArgs {
    std::vector<std::string> parts;
    std::string output;
};

int run_tacollection(const TacollectionArgs& a) {
    const std::vector<std::filesystem::path> parts(a.parts.begin(), a.parts.end());
    std::cout << create_tacollection(parts, a.output).string() << "\n";
    return kExitOk;
}

}  // namespace

Command make_tacollection_command() {
    auto args = std::make_shared<TacollectionArgs>();
    Command c;
    c.add = [args](CLI::App& app) {
        CLI::App* sub = app.add_subcommand(
            "tacollection", "Write TACOLLECTION.json, the merged description of TACO ZIP parts");
        sub->add_option("parts", args->parts, "The .tacozip parts, in order")->required();
        sub->add_option("-o,--output", args->output, "Directory to write TACOLLECTION.json into")
            ->required();
        return sub;
    };
    c.run = [args] { return run_tacollection(*args); };
    return c;
}

}  // namespace taco::cli
