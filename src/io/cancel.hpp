// Cooperative cancellation: a signal handler (CLI) or a binding (Python's KeyboardInterrupt) asks
// long operations to stop; they throw IoError at the next safe point, and RAII removes whatever
// was half-written. Async-signal-safe to request.
#pragma once

#include <cstddef>
#include <functional>

namespace taco::io {

/// Asks running operations to stop (safe to call from a signal handler).
void request_cancel() noexcept;
/// Clears a previous request (before starting new work).
void reset_cancel() noexcept;
bool cancel_requested() noexcept;
/// Throws IoError("interrupted ...") when a stop was requested.
void throw_if_cancelled(const char* what);

/// Work that blocks outside our own loops (a DuckDB query) registers how to interrupt it; a
/// thread (never a signal handler) calls run_cancel_hooks() after request_cancel(). A hook is
/// never running once remove_cancel_hook() has returned.
size_t add_cancel_hook(std::function<void()> hook);
void remove_cancel_hook(size_t id);
void run_cancel_hooks();

}  // namespace taco::io
