// How `taco` reports a failure on stderr: one line "taco: error: ..." for people, or, when the
// command was given --json, one JSON object {"error", "kind", "path", "exit_code"} so that a
// script reading JSON never has to parse prose (USER-GUIDE "Diagnosing").
#pragma once

#include <string>
#include <string_view>

namespace taco {
class Error;
}

namespace taco::cli {

/// Switches the error format for the rest of the process (run_guarded sets it from --json) and
/// records the dataset path the command works on (null in the JSON when empty).
void set_error_format(bool json, std::string path);
bool json_errors();

/// Prints a warning of a dependency (GDAL) in the current format: "taco: warning: SOURCE: ..."
/// or {"warning", "source"}.
void report_warning(std::string_view source, std::string_view message);

/// Prints `message` in the current format and returns `exit_code`. One failure is printed per
/// run: the command and the signal watcher may both get here when a stopped command takes longer
/// than the grace period to unwind (a sanitized build), and the user must see one report, in one
/// format; the later call prints nothing. `kind` is the error class
/// ("TacoSchemaError", "UsageError", ...).
int report_error(const std::string& message, const std::string& kind, int exit_code);

/// Reports the error a command ended with and returns `exit_code`; once Ctrl-C (or SIGTERM) asked
/// the work to stop, that error is the request seen from inside (DuckDB's "INTERRUPT Error", a
/// cancelled read), so the user is told "interrupted" and the exit code is 128 + the signal.
int report_failure(const taco::Error& error, int exit_code);

}  // namespace taco::cli
