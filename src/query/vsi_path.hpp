// GDAL VSI path strings as tacoreader builds them (REFERENCE-API §A10):
// `/vsisubfile/{o}_{s},{root}` for bytes inside an archive, plain paths for FOLDER datasets.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace taco::query {

inline constexpr std::string_view kVsiSubfile = "/vsisubfile/";

/// Whether `vsi` names bytes inside an archive (checked as text, never on disk).
inline bool is_vsi_subfile(std::string_view vsi) {
    return vsi.substr(0, kVsiSubfile.size()) == kVsiSubfile;
}

struct SubfileRef {
    uint64_t offset = 0;
    uint64_t size = 0;
    std::string_view root;  // everything after the first comma (commas in the root survive)
};

/// nullopt when `vsi` does not start with /vsisubfile/; FormatError when it does but the offset,
/// underscore, size or comma is missing or not a number.
std::optional<SubfileRef> parse_vsi_subfile(std::string_view vsi);

/// Appends `name` to `out`, percent-encoded as a URL path when `url` (the root it is appended to
/// is io::is_http_vsi; RFC 3986's unreserved characters and '/' kept), as it is otherwise.
void append_path(std::string& out, std::string_view name, bool url);

/// The SQL of `name_sql` made a URL path as append_path makes it (DuckDB's url_encode, '/' kept).
std::string url_path_sql(const std::string& name_sql);

/// `/vsisubfile/{offset}_{size},{root}`.
std::string make_vsi_subfile(int64_t offset, int64_t size, std::string_view root);
/// The same into `out` (replacing its content; reusing its buffer in loops).
void write_vsi_subfile(std::string& out, int64_t offset, int64_t size, std::string_view root);

}  // namespace taco::query
