// Writing a collection index at a staging path, for create_tacocat and the multi-part create
// (whose parts are still under their staging names while the index is written).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "taco/tacocat.hpp"

namespace taco::metadata {
class DuckSession;
}

namespace taco::collection {

/// Reads `paths` (TACO ZIPs, in order), names them `names` in `internal:source_file` (their
/// file names when empty) and writes the index at `staging`: a new directory (Folder) or file
/// (File). Errors as create_tacocat. With `db`, the level tables are written through that
/// session (a multi-part create shares its database), else through a session of its own.
void write_tacocat_at(const std::vector<std::filesystem::path>& paths,
                      const std::vector<std::string>& names, const std::filesystem::path& staging,
                      TacocatFormat format, metadata::DuckSession* db = nullptr);

}  // namespace taco::collection
