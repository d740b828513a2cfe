// Joining names for messages and documents ("a, b, c").
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace taco {

/// `items` separated by `sep`.
inline std::string join_text(const std::vector<std::string>& items, std::string_view sep = ", ") {
    std::string out;
    for (const std::string& s : items) {
        if (!out.empty()) out += sep;
        out += s;
    }
    return out;
}

}  // namespace taco
