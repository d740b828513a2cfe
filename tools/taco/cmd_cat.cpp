// `taco cat PATH ROWPATH`: the exact bytes of one FILE sample on stdout, streamed in pieces.
#include <cstdio>
#include <iostream>

#include "commands.hpp"
#include "output.hpp"
#include "rowpath.hpp"
#include "taco/dataset.hpp"
#include "taco/errors.hpp"

namespace taco::cli {
namespace {

struct CatArgs {
    std::string path, rowpath;
};

int run_cat(const CatArgs& a) {
    const Dataset ds = load(a.path);
    const RowLocation at = follow_rowpath(ds, a.rowpath);
    at.frame.stream_bytes(static_cast<int64_t>(at.row), [](std::string_view piece) {
        if (std::fwrite(piece.data(), 1, piece.size(), stdout) != piece.size()) {
            throw IoError("cannot write to standard output");
        }
    });
    if (std::fflush(stdout) != 0) throw IoError("cannot write to standard output");
    return kExitOk;
}

}  // namespace

Command make_cat_command() {
    auto args = std::make_shared<CatArgs>();
    Command c;
    c.add = [args](CLI::App& app) {
        CLI::App* sub =
            app.add_subcommand("cat", "Write the bytes of one FILE sample to standard output");
        sub->add_option("path", args->path,
                        "Dataset: a .tacozip/.zip file or a FOLDER dataset directory")
            ->required();
        sub->add_option("rowpath", args->rowpath,
                        "Sample ids joined by '/', e.g. tile_00/sensor_A/band_R")
            ->required();
        return sub;
    };
    c.run = [args] { return run_read_command([&] { return run_cat(*args); }); };
    return c;
}

}  // namespace taco::cli
