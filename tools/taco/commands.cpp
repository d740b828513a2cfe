#include "commands.hpp"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <new>
#include <stdexcept>

#include "error_report.hpp"
#include "io/cancel.hpp"
#include "taco/errors.hpp"

namespace taco::cli {

std::vector<Command> all_commands() {
    std::vector<Command> cmds;
    cmds.push_back(make_create_command());
    cmds.push_back(make_info_command());
    cmds.push_back(make_ls_command());
    cmds.push_back(make_sql_command());
    cmds.push_back(make_cat_command());
    cmds.push_back(make_validate_command());
    cmds.push_back(make_tacocat_command());
    cmds.push_back(make_tacollection_command());
    cmds.push_back(make_cache_command());
    cmds.push_back(make_export_command());
    cmds.push_back(make_convert_command());
    cmds.push_back(make_migrate_command());
    cmds.push_back(make_cog_command());
    cmds.push_back(make_filter_command());
    cmds.push_back(make_stats_command());
    cmds.push_back(make_docs_command());
    cmds.push_back(make_export_stac_command());
    cmds.push_back(make_export_croissant_command());
    cmds.push_back(make_export_datacite_command());
    return cmds;
}

// A command's output that did not reach its destination (a full disk, a closed pipe's reader
// gone) must not end in exit 0 with a truncated file: everything written through std::cout and
// stdout is flushed here and a failure is an IoError (exit 2).
void check_standard_output() {
    errno = 0;
    std::cout.flush();
    const bool stream_failed = std::cout.fail();
    if (std::fflush(stdout) != 0 || stream_failed || std::ferror(stdout)) {
        const int err = errno;
        throw taco::IoError(std::string("cannot write to standard output") +
                            (err ? ": " + std::string(std::strerror(err)) : "") +
                            "; the output is incomplete");
    }
}

namespace {

// The value of the first of `names` the command has and was given (the dataset it works on).
std::string path_argument(const CLI::App* sub) {
    for (const char* name : {"path", "output"}) {
        const CLI::Option* opt = sub->get_option_no_throw(name);
        if (opt && opt->count() > 0 && !opt->results().empty()) return opt->results().front();
    }
    return {};
}

bool wants_json(const CLI::App* sub) {
    const CLI::Option* opt = sub->get_option_no_throw("--json");
    return opt && opt->count() > 0;
}

}  // namespace

namespace {
std::atomic<int> g_stopping_signal{0};
}  // namespace

void set_stopping_signal(int signal) noexcept {
    g_stopping_signal.store(signal, std::memory_order_relaxed);
}

int interrupted_exit_code() noexcept {
    const int signal = g_stopping_signal.load(std::memory_order_relaxed);
    return 128 + (signal > 0 ? signal : 2);
}

int run_guarded(Command& cmd) {
    if (cmd.sub) set_error_format(wants_json(cmd.sub), path_argument(cmd.sub));
    try {
        const int code = cmd.run();
        check_standard_output();
        return code;
    } catch (const taco::IoError& e) {
        return report_failure(e, kExitUsage);
    } catch (const taco::QueryError& e) {
        // A query the dataset cannot answer (a wrong --where / --sql, a bad filter) is the
        // user's to change: exit 2, as `taco sql` says it.
        return report_failure(e, kExitUsage);
    } catch (const taco::Error& e) {
        return report_failure(e, kExitInvalid);
    } catch (const std::invalid_argument& e) {
        return report_error(e.what(), "UsageError", kExitUsage);
    } catch (const std::bad_alloc&) {
        return report_error("out of memory", "MemoryError", kExitUsage);
    } catch (const std::exception& e) {
        return report_error(e.what(), "Error", kExitUsage);
    }
}

}  // namespace taco::cli
