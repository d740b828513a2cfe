// Messages tacocore's dependencies emit beside their errors (GDAL's "Warning 1: ..."), handed to
// the application instead of printed: the `taco` CLI prints them as its own warnings, the Python
// package logs them through `logging` (logger "tacocore.gdal"). A dependency's error messages are
// not logged: they travel inside the taco::Error thrown for the failure.
#pragma once

#include <functional>
#include <string_view>

namespace taco {

enum class LogLevel { Debug, Warning };

/// Receives a message: its level, its source ("GDAL") and its text. May be called from any
/// thread tacocore runs work on, concurrently.
using LogHandler =
    std::function<void(LogLevel level, std::string_view source, std::string_view message)>;

/// Replaces the handler (nullptr: messages are dropped, the default). Set it before starting
/// work: the call is not synchronised with messages being delivered.
void set_log_handler(LogHandler handler);

}  // namespace taco
