// Local paths that are not UTF-8, given to DuckDB and GDAL anyway (issue 18 item 8).
//
// A Linux path is bytes, but DuckDB refuses a SQL text (and so a read_parquet('...') or
// COPY ... TO '...' literal) that is not UTF-8, and GDAL's VSI paths end up in VARCHAR columns
// (internal:gdal_vsi) that must be UTF-8 too. Every local path that reaches DuckDB SQL or a GDAL
// path goes through anchor_path(): a UTF-8 path passes unchanged; any other is opened (O_PATH)
// and spelt /proc/self/fd/N, up to its last component that is not UTF-8, followed by the rest as
// text (a file name and its extension, an output about to be written). The descriptor pins that
// file or directory for as long as the PathAnchor lives (a dataset holds it as long as it is
// loaded); the kernel resolves /proc/self/fd/N/rest through it, for DuckDB and GDAL alike. Messages
// name the path as the user gave it, escaped (path_display.hpp), never /proc/self/fd/N.
#pragma once

#include <filesystem>
#include <memory>
#include <string>

namespace taco::paths {

/// An open descriptor standing for a path that is not UTF-8.
class PathAnchor {
  public:
    /// Opens `path` with O_PATH; throws IoError (naming the path escaped) when it cannot.
    explicit PathAnchor(const std::filesystem::path& path);
    ~PathAnchor();
    PathAnchor(const PathAnchor&) = delete;
    PathAnchor& operator=(const PathAnchor&) = delete;

    /// "/proc/self/fd/N": the UTF-8 spelling of the anchored path.
    const std::string& proc_path() const { return proc_path_; }
    int fd() const { return fd_; }

  private:
    int fd_ = -1;
    std::string proc_path_;
};

/// A path spelt for DuckDB SQL and GDAL: valid UTF-8, usable while `anchor` lives.
struct SqlPath {
    std::string text;
    std::shared_ptr<const PathAnchor> anchor;  // null when the path was UTF-8 already
};

/// `path` unchanged when it is valid UTF-8 (or empty). Otherwise the path up to its last
/// component that is not UTF-8 is anchored and the rest appended: /proc/self/fd/N[/rest], so a
/// UTF-8 file name in such a directory keeps its name. Throws IoError naming the path (escaped)
/// when that anchored part does not exist (it cannot be spelt before it is made).
SqlPath anchor_path(const std::filesystem::path& path);

/// True when `path` needs an anchor (it is not valid UTF-8).
bool needs_anchor(const std::filesystem::path& path);

}  // namespace taco::paths
