#include "model/shorten.hpp"

namespace taco {

std::string shorten(std::string_view text, size_t max) {
    if (text.size() <= max) return std::string(text);
    size_t cut = max;
    // Back up over UTF-8 continuation bytes so the kept part stays valid text.
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    std::string out(text.substr(0, cut));
    out += "... (";
    out += std::to_string(text.size());
    out += " bytes)";
    return out;
}

}  // namespace taco
