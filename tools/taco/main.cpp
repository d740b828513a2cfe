// `taco`: the command line of tacocore. Each subcommand lives in its own cmd_*.cpp file and
// registers itself through commands.hpp.
#include <CLI/CLI.hpp>

#include <csignal>
#include <iostream>

#include "commands.hpp"
#include "io/cancel.hpp"
#include "taco/errors.hpp"

namespace {
// Ctrl-C / SIGTERM: ask the running operation to stop at its next safe point, so staged output
// is removed by its destructor; a second signal exits at once.
extern "C" void on_interrupt(int sig) {
    if (taco::io::cancel_requested()) {
        std::signal(sig, SIG_DFL);
        std::raise(sig);
    }
    taco::io::request_cancel();
}
}  // namespace

int main(int argc, char** argv) {
    std::signal(SIGINT, on_interrupt);
    std::signal(SIGTERM, on_interrupt);
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
