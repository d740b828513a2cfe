// `taco`: the command line of tacocore. Each subcommand lives in its own cmd_*.cpp file and
// registers itself through commands.hpp.
#include <CLI/CLI.hpp>

#include <pthread.h>
#include <unistd.h>

#include <csignal>
#include <ctime>
#include <iostream>
#include <string_view>
#include <thread>

#include "commands.hpp"
#include "error_report.hpp"
#include "io/cancel.hpp"
#include "io/staged_output.hpp"
#include "taco/errors.hpp"
#include "taco/log.hpp"

namespace {

// How long the running operation has, after Ctrl-C / SIGTERM, to stop at its next safe point and
// unwind (removing what it staged) before the process ends without it.
constexpr int kGraceSeconds = 3;

// Ctrl-C, SIGTERM, SIGHUP are taken by one thread (sigwait) rather than a handler: it asks the
// running work to stop (and interrupts a DuckDB query), and when the work does not end within
// the grace period, or on a second signal, removes the staged output and ends the process. A
// termination signal therefore always ends `taco`, even while it is blocked in a system call.
void watch_signals(sigset_t set) {
    int sig = 0;
    if (sigwait(&set, &sig) != 0) return;
    taco::cli::set_stopping_signal(sig);
    taco::io::request_cancel();
    taco::io::run_cancel_hooks();
    const timespec grace{kGraceSeconds, 0};
    sigtimedwait(&set, nullptr, &grace);  // a second signal, or the grace period, ends the wait
    taco::io::remove_pending_staging();
    // Said once, in the command's format (JSON under --json): a command that already reported
    // its interruption and is still unwinding is not reported twice.
    taco::cli::report_error("interrupted", "Interrupted", 128 + sig);
    ::_exit(128 + sig);
}

}  // namespace

int main(int argc, char** argv) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    // Blocked here, before any other thread exists, so that every thread inherits the mask and
    // only the watcher receives them.
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    std::thread(watch_signals, set).detach();
    // GDAL's warnings as taco's own (its errors arrive inside the error taco reports).
    taco::set_log_handler([](taco::LogLevel level, std::string_view source, std::string_view msg) {
        if (level == taco::LogLevel::Warning) taco::cli::report_warning(source, msg);
    });
    CLI::App app{"taco — create, inspect, query and validate TACO datasets"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "taco (tacocore) 0.1.0");
    std::vector<taco::cli::Command> commands = taco::cli::all_commands();
    for (auto& cmd : commands) cmd.attach(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        // --help and --version are "errors" that succeed; real ones are usage errors, in JSON
        // when the command line asked for JSON.
        bool json = false;
        for (int i = 1; i < argc; ++i) json = json || std::string_view(argv[i]) == "--json";
        if (!json || e.get_exit_code() == 0) {
            int code = app.exit(e);
            return code == 0 ? 0 : taco::cli::kExitUsage;
        }
        taco::cli::set_error_format(true, "");
        return taco::cli::report_error(e.what(), "UsageError", taco::cli::kExitUsage);
    }
    for (auto& cmd : commands) {
        if (cmd.selected()) return taco::cli::run_guarded(cmd);
    }
    return taco::cli::kExitUsage;
}
