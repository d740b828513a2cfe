// Shared plumbing of the `taco` subcommands: registration, exit codes, error reporting.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace taco::cli {

/// Exit codes: 0 success; 1 the data is invalid (validation findings, PIT or schema errors);
/// 2 usage or I/O errors (bad arguments, missing files, unreadable input); 128 + N stopped by
/// signal N (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP).
constexpr int kExitOk = 0;
constexpr int kExitInvalid = 1;
constexpr int kExitUsage = 2;
constexpr int kExitLimit = 3;  // a limit was reached: --timeout (USER-GUIDE "Exit codes")

/// Records the signal that stopped the work (main.cpp's watcher, before it asks to cancel).
void set_stopping_signal(int signal) noexcept;
/// 128 + the signal recorded (130 when none was: an interruption from elsewhere), output removed.
int interrupted_exit_code() noexcept;

/// One subcommand: `attach` adds its options to the app, `run` executes it after parsing.
struct Command {
    std::function<CLI::App*(CLI::App&)> add;
    std::function<int()> run;
    CLI::App* sub = nullptr;

    void attach(CLI::App& app) { sub = add(app); }
    bool selected() const { return sub && sub->parsed(); }
};

std::vector<Command> all_commands();
/// Runs a command, turning exceptions into a one-line message on stderr and an exit code.
int run_guarded(Command& cmd);
/// Flushes standard output; IoError when what was written did not all arrive (a full disk).
void check_standard_output();

// Factories, one per cmd_*.cpp.
Command make_create_command();
Command make_info_command();
Command make_ls_command();
Command make_sql_command();
Command make_cat_command();
Command make_validate_command();
Command make_tacocat_command();
Command make_tacollection_command();
Command make_cache_command();
Command make_export_command();       // cmd_export.cpp (issue 16)
Command make_convert_command();      // cmd_convert.cpp (issue 16)
Command make_migrate_command();      // cmd_migrate.cpp (issue 16, legacy v1)
Command make_cog_command();          // cmd_cog.cpp (issue 16)
Command make_filter_command();       // cmd_filter.cpp (issue 14)
Command make_stats_command();        // cmd_stats.cpp (issue 14)
Command make_docs_command();         // cmd_docs.cpp (issue 16)
Command make_export_stac_command();  // cmd_export_stac.cpp (issue 16)
// cmd_export_croissant.cpp, cmd_export_datacite.cpp (issue 16)
Command make_export_croissant_command();
Command make_export_datacite_command();

}  // namespace taco::cli
