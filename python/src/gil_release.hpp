// Releasing the GIL around native work, like nb::gil_scoped_release, but safe at interpreter
// exit. A daemon thread that takes the GIL back while Python finalizes is ended by CPython with
// pthread_exit() (3.11-3.13), whose forced unwinding cannot leave the noexcept destructor that
// asked: std::terminate, "terminate called without an active exception", exit code 134.
//
// So the module's atexit handler (before_interpreter_exit, run before finalization begins) marks
// the process as exiting and, with the GIL released, waits for every thread already taking the
// GIL back to have it. From then on a thread that finishes its native work never asks for the
// GIL again: it waits until the process is gone, as CPython 3.14 does with such threads itself.
#pragma once

#include <Python.h>

#include <atomic>

namespace taco::py {

/// Threads between "done with native work" and "holding the GIL again", and whether the
/// interpreter is past its atexit handlers.
inline std::atomic<int> g_taking_gil_back{0};
inline std::atomic<bool> g_interpreter_exiting{false};

/// Never returns: the thread outlives nothing but the process.
[[noreturn]] void wait_for_process_exit() noexcept;

class GilRelease {
  public:
    GilRelease() noexcept : state_(PyEval_SaveThread()) {}
    ~GilRelease() {
        g_taking_gil_back.fetch_add(1);
        if (g_interpreter_exiting.load()) {
            g_taking_gil_back.fetch_sub(1);
            wait_for_process_exit();
        }
        PyEval_RestoreThread(state_);
        g_taking_gil_back.fetch_sub(1);
    }
    GilRelease(const GilRelease&) = delete;
    GilRelease& operator=(const GilRelease&) = delete;

  private:
    PyThreadState* state_;
};

/// The atexit handler (module.cpp registers it; the GIL is held): after it returns, no thread
/// takes the GIL back through a GilRelease.
void before_interpreter_exit();

}  // namespace taco::py
