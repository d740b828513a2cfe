#include "paths/path_anchor.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "model/utf8.hpp"
#include "paths/path_display.hpp"
#include "taco/errors.hpp"

namespace fs = std::filesystem;

namespace taco::paths {

PathAnchor::PathAnchor(const fs::path& path) {
    // O_PATH: no read permission needed and nothing read; it only names the inode. DuckDB and
    // GDAL open /proc/self/fd/N themselves (the kernel allows reopening an O_PATH descriptor
    // through /proc with the file's own permissions).
    fd_ = ::open(path.c_str(), O_PATH | O_CLOEXEC);
    if (fd_ < 0) {
        throw IoError("cannot open '" + escape_invalid_utf8(path.string()) +
                      "': " + std::strerror(errno));
    }
    proc_path_ = "/proc/self/fd/" + std::to_string(fd_);
    remember_anchor(fd_, path.string());
}

PathAnchor::~PathAnchor() {
    if (fd_ >= 0) ::close(fd_);
}

bool needs_anchor(const fs::path& path) {
    return !model::is_valid_utf8(path.native());
}

SqlPath anchor_path(const fs::path& path) {
    if (!needs_anchor(path)) return {path.string(), nullptr};
    // Walk up to the deepest ancestor that exists; what lies below it (an output not written
    // yet) is appended as text, so it has to be UTF-8 itself.
    fs::path base = path;
    fs::path rest;
    std::error_code ec;
    while (!fs::exists(base, ec)) {
        const fs::path parent = base.has_parent_path() ? base.parent_path() : fs::path(".");
        rest = rest.empty() ? base.filename() : base.filename() / rest;
        if (parent == base || base.filename().empty()) break;
        base = parent;
    }
    if (!model::is_valid_utf8(rest.native())) {
        throw IoError("cannot use '" + escape_invalid_utf8(path.string()) +
                      "': a file that does not exist yet and whose own name is not UTF-8 cannot "
                      "be given to DuckDB or GDAL (create its directory first, or rename it)");
    }
    auto anchor = std::make_shared<const PathAnchor>(base);
    std::string text = anchor->proc_path();
    if (!rest.empty()) text += "/" + rest.string();
    return {std::move(text), std::move(anchor)};
}

}  // namespace taco::paths
