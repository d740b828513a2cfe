#include "create_on_dask.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "commands.hpp"
#include "error_report.hpp"

namespace taco::cli {
namespace {

// Runs in the chosen Python: a missing package gets a message naming this Python and the fix,
// instead of a bare "No module named tacocore".
constexpr const char* kBootstrap = R"PY(import json, sys
try:
    from tacocore._dask_cli import main
except ImportError as exc:
    message = ("--scheduler/--workers run the create with the tacocore Python package and Dask, "
               "which " + sys.executable + " cannot import (" + str(exc) + "); install them "
               "there (pip install 'tacocore[dask]') or set TACO_PYTHON to a Python that has them")
    if "--json" in sys.argv:
        output = sys.argv[3] if len(sys.argv) > 3 else None  # -c --from DIR OUTPUT ...
        sys.stderr.write(json.dumps({"error": message, "kind": "UsageError", "path": output,
                                     "exit_code": 2}) + "\n")
    else:
        sys.stderr.write("taco create: " + message + "\n")
    sys.exit(2)
sys.exit(main(sys.argv[1:]))
)PY";
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
    return report_error("cannot run Python '" + python + "' for --scheduler/--workers (" +
                            std::strerror(err) +
                            "); install python3 with the tacocore package and Dask, or set "
                            "TACO_PYTHON to one",
                        "UsageError", kExitUsage);
}

}  // namespace taco::cli
