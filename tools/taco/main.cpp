// `taco`: the command line of tacocore. Each subcommand lives in its own cmd_*.cpp file and
// registers itself through commands.hpp.
#include <CLI/CLI.hpp>

#include <iostream>

#include "commands.hpp"
#include "taco/errors.hpp"

int main(int argc, char** argv) {
    CLI::App app{"taco — create, inspect, query and validate TACO datasets"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "taco (tacocore) 0.1.0");
    std::vector<taco::cli::Command> commands = taco::cli::all_commands();
    for (auto& cmd : commands) cmd.attach(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        int code = app.exit(e);
        return code == 0 ? 0 : taco::cli::kExitUsage;
    }
    for (auto& cmd : commands) {
        if (cmd.selected()) return taco::cli::run_guarded(cmd);
    }
    return taco::cli::kExitUsage;
}
