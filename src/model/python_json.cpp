#include "model/python_json.hpp"

#include <array>
#include <cmath>
#include <limits>
#include <string_view>

namespace taco::model {
namespace {

// A NUL cannot appear raw in a JSON string, so only a document that escapes it on purpose
// (`\u0000tacocore:`) could spell a marker; mark_non_finite_tokens then leaves the text alone.
constexpr std::string_view kMarkerPrefixEscaped = "\\u0000tacocore:";
const std::string kMarkerPrefix = std::string(1, '\0') + "tacocore:";

struct Token {
    std::string_view text;
    double value;
};
const std::array<Token, 3> kTokens = {{
    {"-Infinity", -std::numeric_limits<double>::infinity()},
    {"Infinity", std::numeric_limits<double>::infinity()},
    {"NaN", std::numeric_limits<double>::quiet_NaN()},
}};

}  // namespace

void restore_non_finite(nlohmann::ordered_json& v) {
    if (v.is_string()) {
        const std::string& s = v.get_ref<const std::string&>();
        if (s.size() <= kMarkerPrefix.size() || s.compare(0, kMarkerPrefix.size(), kMarkerPrefix))
            return;
        const std::string_view name = std::string_view(s).substr(kMarkerPrefix.size());
        for (const Token& t : kTokens) {
            if (name == t.text) {
                v = t.value;
                return;
            }
        }
    } else if (v.is_structured()) {
        for (auto& item : v) restore_non_finite(item);
    }
}

bool mark_non_finite_tokens(std::string& text) {
    if (text.find(kMarkerPrefixEscaped) != std::string::npos) return false;
    std::string out;
    bool in_string = false, replaced = false;
    size_t copied = 0;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (c == '\\')
                ++i;  // the escaped character cannot end the string
            else if (c == '"')
                in_string = false;
            continue;
        }
        if (c == '"') {
            in_string = true;
            continue;
        }
        if (c != 'N' && c != 'I' && c != '-') continue;
        for (const Token& t : kTokens) {
            if (std::string_view(text).substr(i, t.text.size()) != t.text) continue;
            out.append(text, copied, i - copied);
            out += '"';
            out += kMarkerPrefixEscaped;
            out += t.text;
            out += '"';
            i += t.text.size() - 1;
            copied = i + 1;
            replaced = true;
            break;
        }
    }
    if (!replaced) return false;
    out.append(text, copied, std::string::npos);
    text = std::move(out);
    return true;
}

bool has_non_finite(const nlohmann::ordered_json& doc) {
    if (doc.is_number_float()) return !std::isfinite(doc.get<double>());
    if (doc.is_structured()) {
        for (const auto& item : doc)
            if (has_non_finite(item)) return true;
    }
    return false;
}

}  // namespace taco::model
