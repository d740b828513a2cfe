// Ctrl-C during a long native call. Python runs signal handlers only on its main thread and only
// between bytecodes, so a query running with the GIL released would ignore KeyboardInterrupt
// until it ends. Here the work runs on a helper thread while the calling thread waits without
// the GIL and, every kSignalPoll, takes the GIL to run pending signal handlers: when one raises
// (KeyboardInterrupt, or whatever a user's SIGINT handler raises), `interrupt` stops the work,
// the helper is joined, and the Python exception propagates. Off the main thread nothing is
// delivered, and the call just waits.
#pragma once

#include <chrono>
#include <exception>
#include <future>
#include <utility>

#include "py_common.hpp"

namespace taco::py {

inline constexpr std::chrono::milliseconds kSignalPoll{50};

/// Calls `work()` (no GIL, on another thread) and returns its result; C++ exceptions propagate
/// as thrown. `interrupt()` must make `work` return soon (e.g. Dataset::interrupt).
template <typename Work, typename Interrupt>
auto call_interruptible(Work&& work, Interrupt&& interrupt) -> decltype(work()) {
    std::future<decltype(work())> result = std::async(std::launch::async, std::forward<Work>(work));
    for (;;) {
        {
            GilRelease release;
            if (result.wait_for(kSignalPoll) == std::future_status::ready) break;
        }
        if (PyErr_CheckSignals() != 0) {
            interrupt();
            {
                GilRelease release;
                result.wait();
            }
            try {
                result.get();  // the interrupted work's own error is not the news
            } catch (...) {
            }
            throw nb::python_error();
        }
    }
    return result.get();
}

}  // namespace taco::py
