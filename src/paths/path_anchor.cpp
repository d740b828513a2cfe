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
    // Anchor the path up to its last component that is not UTF-8; the components after it are
    // kept as text, so a file keeps its name and extension (DuckDB picks its CSV/JSON/Parquet
    // reader by extension, GDAL some drivers) and an output not written yet can be named.
    fs::path base;
    fs::path rest;
    for (const fs::path& part : path) {
        if (!model::is_valid_utf8(part.native())) {
            base /= rest;
            base /= part;
            rest.clear();
        } else {
            rest /= part;
        }
    }
    std::error_code ec;
    if (!fs::exists(base, ec)) {
        throw IoError("cannot use '" + escape_invalid_utf8(path.string()) + "': '" +
                      escape_invalid_utf8(base.string()) +
                      "' does not exist, and a name that is not UTF-8 can only be given to DuckDB "
                      "or GDAL once it exists (create it first, or rename it)");
    }
    auto anchor = std::make_shared<const PathAnchor>(base);
    std::string text = anchor->proc_path();
    if (!rest.empty()) text += "/" + rest.string();
    return {std::move(text), std::move(anchor)};
}

}  // namespace taco::paths
