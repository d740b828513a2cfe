// The `internal:` column namespace (spec §"Reserved columns"): columns the writer adds and the
// reader relies on, never the user's metadata. One spelling of the test for every module.
#pragma once

#include <string_view>

namespace taco {

/// Whether `name` is in the reserved `internal:` namespace (`internal:offset`,
/// `internal:gdal_vsi`…).
inline bool is_internal_column(std::string_view name) {
    return name.substr(0, 9) == "internal:";
}

}  // namespace taco
