#include "validate/validate_report.hpp"

#include <algorithm>

#include "io/cancel.hpp"
#include "model/shorten.hpp"
#include "paths/path_display.hpp"

namespace taco {

const char* to_string(Severity severity) {
    switch (severity) {
        case Severity::Error:
            return "error";
        case Severity::Warning:
            return "warning";
        case Severity::Info:
            return "info";
    }
    return "error";
}

size_t ValidationReport::count(Severity severity) const {
    return static_cast<size_t>(
        std::count_if(findings.begin(), findings.end(),
                      [&](const Finding& f) { return f.severity == severity; }));
}

}  // namespace taco

namespace taco::format {
namespace {

// Findings quote DuckDB and values from the file: never the descriptor a table is read through,
// never more than a screenful.
std::string fit_for_report(std::string message) {
    // A dataset whose path is not UTF-8 is read through /proc/self/fd/N too: named as given,
    // escaped (paths/path_display.hpp); the other descriptors are in-memory tables.
    message = paths::display_text(message);
    const std::string fd_prefix = "/proc/self/fd/";
    for (size_t at = message.find(fd_prefix); at != std::string::npos;
         at = message.find(fd_prefix, at)) {
        size_t end = at + fd_prefix.size();
        while (end < message.size() && message[end] >= '0' && message[end] <= '9') ++end;
        message.replace(at, end - at, "<metadata table in memory>");
    }
    const size_t line = message.find("\nLINE ");
    if (line != std::string::npos) message.erase(line);
    return shorten(message, 2000);
}

}  // namespace

void FindingSink::add(Severity severity, const std::string& code, const std::string& location,
                      const std::string& message, const std::string& scope) {
    if (severity == Severity::Error) ++errors_;
    Counter& c = counters_[{code, scope}];
    ++c.total;
    // Severity enumerators run from most to least severe.
    if (c.total == 1 || severity < c.worst) c.worst = severity;
    if (c.total > max_) {
        ++report_.suppressed;
        return;
    }
    report_.findings.push_back({severity, code, shorten(location, 400), fit_for_report(message)});
}

void FindingSink::finish() {
    // Stopped (Ctrl-C in `taco validate`): checks cut short became findings ("INTERRUPT
    // Error"), and checks not run found nothing. Neither an INVALID nor a valid report would
    // be true: the validation ends as interrupted.
    io::throw_if_cancelled("validating");
    for (const auto& [key, c] : counters_) {
        if (c.total <= max_) continue;
        const std::string where = key.second.empty() ? "dataset" : key.second;
        report_.findings.push_back(
            {c.worst, key.first, where,
             std::to_string(c.total - max_) + " more finding(s) of this kind were left out (" +
                 std::to_string(c.total) + " in total; raise the limit to see them all)"});
    }
}

}  // namespace taco::format
