#include "io/contained_path.hpp"

#include <system_error>

namespace fs = std::filesystem;

namespace taco::io {

std::string unsafe_relative_path(std::string_view rel) {
    if (rel.empty()) return "it is empty";
    if (rel.front() == '/') return "it is an absolute path";
    if (rel.find('\\') != std::string_view::npos) return "it contains '\\'";
    if (rel.find('\0') != std::string_view::npos) return "it contains a NUL byte";
    if (rel.back() == '/') rel.remove_suffix(1);
    size_t start = 0;
    while (true) {
        const size_t end = rel.find('/', start);
        const std::string_view part =
            rel.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
        if (part.empty()) return "it has an empty component ('//')";
        if (part == "." || part == "..") return "it has a '" + std::string(part) + "' component";
        if (end == std::string_view::npos) return {};
        start = end + 1;
    }
}

bool resolves_inside(const fs::path& path, const std::string& given_root) {
    std::error_code ec;
    fs::path real = fs::weakly_canonical(path, ec);
    if (ec) real = path.lexically_normal();
    const std::string s = real.string();
    // A root whose path is not UTF-8 is spelt /proc/self/fd/N (paths/path_anchor.hpp); `real`
    // comes out under the directory it stands for, so the root is compared resolved as well.
    std::string root = given_root;
    if (root.rfind("/proc/self/fd/", 0) == 0) {
        const fs::path resolved = fs::weakly_canonical(root, ec);
        if (!ec) root = resolved.string();
    }
    return s.size() > root.size() && s.compare(0, root.size(), root) == 0 && s[root.size()] == '/';
}

}  // namespace taco::io
