#include "legacy/v1_parts.hpp"

#include <algorithm>
#include <filesystem>
#include <regex>

namespace fs = std::filesystem;

namespace taco::legacy {
namespace {

const std::regex& part_pattern() {
    static const std::regex re(R"(^(.*)\.([0-9]{4})\.part\.(taco|tortilla)$)");
    return re;
}

// Siblings of `prefix` (a path without .NNNN.part.ext) named `<prefix>.NNNN.part.<ext>`.
std::vector<std::string> siblings(const std::string& prefix, const std::string& ext) {
    std::vector<std::string> out;
    const fs::path dir = fs::path(prefix).parent_path();
    const std::string stem = fs::path(prefix).filename().string();
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir.empty() ? fs::path(".") : dir, ec)) {
        const std::string name = e.path().filename().string();
        std::smatch m;
        if (std::regex_match(name, m, part_pattern()) && m[1] == stem && m[3] == ext)
            out.push_back((dir / name).string());
    }
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

bool is_part_name(const std::string& path) {
    return std::regex_match(fs::path(path).filename().string(), part_pattern());
}

std::vector<std::string> local_parts(const std::string& path) {
    std::smatch m;
    if (std::regex_match(path, m, part_pattern())) return siblings(m[1], m[3]);
    std::error_code ec;
    if (!fs::exists(path, ec)) {
        const fs::path p(path);
        const std::string ext = p.extension().string();
        if (ext == ".taco" || ext == ".tortilla") {
            auto parts = siblings((p.parent_path() / p.stem()).string(), ext.substr(1));
            if (!parts.empty()) return parts;
        }
    }
    return {path};
}

std::vector<std::string> remote_parts(const std::string& url, uint64_t count) {
    std::smatch m;
    if (!std::regex_match(url, m, part_pattern())) return {url};
    // pytortilla numbers parts from 0000; a part numbered `count` or more means 0001-based.
    const uint64_t given = std::stoull(m[2]);
    const uint64_t first = given >= count ? 1 : 0;
    std::vector<std::string> out;
    for (uint64_t i = first; i < first + count; ++i) {
        char num[24];
        std::snprintf(num, sizeof num, "%04llu", static_cast<unsigned long long>(i));
        out.push_back(m[1].str() + "." + num + ".part." + m[3].str());
    }
    return out;
}

}  // namespace taco::legacy
