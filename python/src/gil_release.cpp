#include "gil_release.hpp"

#include <unistd.h>

#include "py_common.hpp"

namespace taco::py {

void wait_for_process_exit() noexcept {
    for (;;) pause();
}

void before_interpreter_exit() {
    g_interpreter_exiting.store(true);
    {
        // Threads already taking the GIL back get it (and run on as before): they cannot be
        // told to stop once inside PyEval_RestoreThread.
        nb::gil_scoped_release release;
        while (g_taking_gil_back.load() > 0) usleep(1000);
    }
    // Daemon threads still running hold references Python never frees at exit: nanobind would
    // report each as a leak of the binding code.
    if (nb::cast<int>(nb::module_::import_("threading").attr("active_count")()) > 1)
        nb::set_leak_warnings(false);
}

}  // namespace taco::py
