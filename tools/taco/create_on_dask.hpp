// `taco create --scheduler tcp://HOST:PORT | --workers N`: the distributed create runs in Python
// (tacocore.dask, on a Dask cluster); the CLI hands its arguments over to it and exits with its
// code. Used by cmd_create.cpp.
#pragma once

#include <string>
#include <vector>

namespace taco::cli {

/// Replaces this process by `PYTHON -c <bootstrap> ARGS...`, which runs
/// tacocore._dask_cli.main(ARGS). PYTHON is $TACO_PYTHON when set, else `python3` from PATH.
/// Returns only on failure: exit code 2 after a message saying which Python was tried and how
/// to point TACO_PYTHON at one with tacocore[dask] installed. (A Python without tacocore or
/// Dask reports that itself, with exit code 2.)
int run_create_on_dask(const std::vector<std::string>& args);

}  // namespace taco::cli
