#include "error_report.hpp"

#include <nlohmann/json.hpp>

#include <atomic>
#include <iostream>

#include "commands.hpp"
#include "io/cancel.hpp"
#include "paths/path_display.hpp"
#include "taco/errors.hpp"

namespace taco::cli {
namespace {

bool g_json = false;
std::string g_path;
// The one failure a run reports: claimed by the command's own report or by the signal watcher
// when the grace period ends, whichever comes first.
std::atomic<bool> g_failure_claimed{false};

bool claim_failure_report() noexcept {
    return !g_failure_claimed.exchange(true);
}

}  // namespace

void set_error_format(bool json, std::string path) {
    g_json = json;
    g_path = std::move(path);
}

bool json_errors() {
    return g_json;
}

void report_warning(std::string_view source, std::string_view raw_message) {
    // Messages quote paths and file contents, which need not be UTF-8: shown escaped (`\xff`)
    // and with descriptor paths named as the user gave them (paths/path_display.hpp).
    const std::string message = paths::display_text(raw_message);
    if (!g_json) {
        std::cerr << "taco: warning: " << source << ": " << message << "\n";
        return;
    }
    const nlohmann::ordered_json j = {{"warning", message}, {"source", source}};
    std::cerr << j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
}

int report_error(const std::string& raw_message, const std::string& kind, int exit_code) {
    if (!claim_failure_report()) return exit_code;  // the other reporter said it already
    const std::string message = paths::display_text(raw_message);
    if (!g_json) {
        std::cerr << "taco: error: " << message << "\n";
        return exit_code;
    }
    nlohmann::ordered_json j = {
        {"error", message},
        {"kind", kind},
        {"path", g_path.empty() ? nlohmann::ordered_json(nullptr)
                                : nlohmann::ordered_json(paths::display_text(g_path))},
        {"exit_code", exit_code}};
    // display_text() made the message UTF-8; `replace` stays as a last line of defence.
    std::cerr << j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
    return exit_code;
}

int report_failure(const taco::Error& error, int exit_code) {
    if (io::cancel_requested())
        return report_error("interrupted", "Interrupted", interrupted_exit_code());
    return report_error(error.what(), error.kind(), exit_code);
}

}  // namespace taco::cli
