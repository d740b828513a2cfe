// `taco cache clear` / `taco cache dir`: the on-disk cache of remote metadata (TACOCORE_CACHE_DIR).
#include <iostream>

#include "commands.hpp"
#include "taco/remote.hpp"

namespace taco::cli {
namespace {

struct CacheArgs {
    CLI::App* clear = nullptr;
    CLI::App* dir = nullptr;
};

int run_cache(const CacheArgs& a) {
    const bool off = !metadata_cache_enabled();
    const std::string off_text =
        "the cache is switched off (TACOCORE_CACHE_DIR=" + metadata_cache_dir().string() + ")";
    if (a.dir && a.dir->parsed()) {
        std::cout << (off ? off_text : metadata_cache_dir().string()) << "\n";
        return kExitOk;
    }
    const size_t removed = clear_cache();
    if (off) {
        std::cout << off_text << ": no cached entry to remove\n";
        return kExitOk;
    }
    std::cout << "removed " << removed << " cached entr" << (removed == 1 ? "y" : "ies") << " from "
              << metadata_cache_dir().string() << "\n";
    return kExitOk;
}

}  // namespace

Command make_cache_command() {
    auto args = std::make_shared<CacheArgs>();
    Command c;
    c.add = [args](CLI::App& app) {
        CLI::App* sub = app.add_subcommand(
            "cache", "The on-disk cache of remote datasets' metadata (TACOCORE_CACHE_DIR)");
        args->clear = sub->add_subcommand("clear", "Remove every cached entry");
        args->dir = sub->add_subcommand("dir", "Print where the cache lives");
        sub->require_subcommand(1);
        return sub;
    };
    c.run = [args] { return run_cache(*args); };
    return c;
}

}  // namespace taco::cli
