#include "create_on_dask.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "commands.hpp"

namespace taco::cli {
namespace {

// Runs in the chosen Python: a missing package gets a message naming this Python and the fix,
// instead of a bare "No module named tacocore".
constexpr const char* kBootstrap =
    "import sys\n"
    "try:\n"
    "    from tacocore._dask_cli import main\n"
    "except ImportError as exc:\n"
    "    sys.stderr.write('taco create: --scheduler/--workers run the create with the tacocore '\n"
    "                     'Python package and Dask, which ' + sys.executable + ' cannot import (' "
    "+\n"
    "                     str(exc) + \"); install them there (pip install 'tacocore[dask]') or set "
    "\"\n"
    "                     'TACO_PYTHON to a Python that has them\\n')\n"
    "    sys.exit(2)\n"
    "sys.exit(main(sys.argv[1:]))\n";

}  // namespace

int run_create_on_dask(const std::vector<std::string>& args) {
    const char* env = std::getenv("TACO_PYTHON");
    const std::string python = env && *env ? env : "python3";
    std::vector<std::string> words = {python, "-c", kBootstrap};
    words.insert(words.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    std::cout.flush();
    execvp(python.c_str(), argv.data());
    const int err = errno;
    std::cerr << "taco create: cannot run Python '" << python << "' for --scheduler/--workers ("
              << std::strerror(err)
              << "); install python3 with the tacocore package and Dask, or set TACO_PYTHON to "
                 "one\n";
    return kExitUsage;
}

}  // namespace taco::cli
