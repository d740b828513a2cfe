// Argument checks with messages a person can act on. CLI11's PositiveNumber reports a rejected
// value with the whole double range ("not in range 2.2250738585072014e-308 to 1.79...e+308").
#pragma once

#include <CLI/CLI.hpp>

#include <cstdlib>
#include <string>

namespace taco::cli {

/// A number greater than zero (`what` names the unit in the message, e.g. "seconds").
inline CLI::Validator positive_number(const std::string& what) {
    return CLI::Validator(
        [what](std::string& text) -> std::string {
            char* end = nullptr;
            const double v = std::strtod(text.c_str(), &end);
            if (text.empty() || *end != '\0' || !(v > 0))
                return "'" + text + "' is not a positive number of " + what;
            return {};
        },
        "POSITIVE");
}

/// A whole number of at least 1.
inline CLI::Validator at_least_one() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            char* end = nullptr;
            const long long v = std::strtoll(text.c_str(), &end, 10);
            if (text.empty() || *end != '\0' || v < 1)
                return "'" + text + "' is not a whole number of at least 1";
            return {};
        },
        "N>=1");
}

}  // namespace taco::cli
