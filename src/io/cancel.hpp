// Cooperative cancellation: a signal handler (CLI) or a binding (Python's KeyboardInterrupt) asks
// long operations to stop; they throw IoError at the next safe point, and RAII removes whatever
// was half-written. Async-signal-safe to request.
#pragma once

namespace taco::io {

/// Asks running operations to stop (safe to call from a signal handler).
void request_cancel() noexcept;
/// Clears a previous request (before starting new work).
void reset_cancel() noexcept;
bool cancel_requested() noexcept;
/// Throws IoError("interrupted ...") when a stop was requested.
void throw_if_cancelled(const char* what);

}  // namespace taco::io
