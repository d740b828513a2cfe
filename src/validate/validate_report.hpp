// Collecting validation findings: each check reports through a FindingSink, which caps how many
// findings one check may produce for one file so a broken million-row table stays readable.
#pragma once

#include <map>
#include <string>
#include <utility>

#include "taco/validate.hpp"

namespace taco::format {

class FindingSink {
  public:
    FindingSink(ValidationReport& report, size_t max_per_check)
        : report_(report), max_(max_per_check) {}

    /// Records a finding. `scope` groups findings for the cap (usually the file being checked).
    void add(Severity severity, const std::string& code, const std::string& location,
             const std::string& message, const std::string& scope = "");
    void error(const std::string& code, const std::string& location, const std::string& message,
               const std::string& scope = "") {
        add(Severity::Error, code, location, message, scope);
    }
    void warning(const std::string& code, const std::string& location, const std::string& message,
                 const std::string& scope = "") {
        add(Severity::Warning, code, location, message, scope);
    }
    void info(const std::string& code, const std::string& location, const std::string& message,
              const std::string& scope = "") {
        add(Severity::Info, code, location, message, scope);
    }
    /// Whether any error has been recorded (suppressed ones included).
    bool has_errors() const { return errors_ > 0; }
    /// Appends one summary finding per capped check. Call once at the end.
    void finish();

  private:
    struct Counter {
        size_t total = 0;
        Severity worst = Severity::Info;
    };
    ValidationReport& report_;
    size_t max_;
    size_t errors_ = 0;
    std::map<std::pair<std::string, std::string>, Counter> counters_;  // (code, scope)
};

}  // namespace taco::format
