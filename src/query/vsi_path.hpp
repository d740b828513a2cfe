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

/// `/vsisubfile/{offset}_{size},{root}`.
std::string make_vsi_subfile(int64_t offset, int64_t size, std::string_view root);
/// The same into `out` (replacing its content; reusing its buffer in loops).
void write_vsi_subfile(std::string& out, int64_t offset, int64_t size, std::string_view root);

}  // namespace taco::query
