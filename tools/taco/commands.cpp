#include "commands.hpp"

#include <iostream>

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
    return cmds;
}

int run_guarded(Command& cmd) {
    try {
        return cmd.run();
    } catch (const taco::IoError& e) {
        std::cerr << "taco: error: " << e.what() << "\n";
        return taco::io::cancel_requested() ? kExitInterrupted : kExitUsage;
    } catch (const taco::Error& e) {
        std::cerr << "taco: error: " << e.what() << "\n";
        // An interrupted DuckDB query ends in a QueryError: still an interruption.
        return taco::io::cancel_requested() ? kExitInterrupted : kExitInvalid;
    } catch (const std::exception& e) {
        std::cerr << "taco: error: " << e.what() << "\n";
        return kExitUsage;
    }
}

}  // namespace taco::cli
