// Legacy v1 datasets (issue 16): Tortilla 0.5 `.tortilla` and TACO 0.2 `.taco` files, single or
// split into `.NNNN.part.` files, local or remote. `load()` opens them read-only through
// load_legacy(); migrate() rewrites one as a TACO 2.0 ZIP or FOLDER. How v1 maps onto TACO 2.0:
// docs/FORMAT-DECISIONS.md "Legacy v1" and docs/USER-GUIDE.md "Legacy v1 datasets".
#pragma once

#include <filesystem>

#include "taco/convert.hpp"
#include "taco/dataset.hpp"

namespace taco {

/// True when `path` is a v1 file tacocore reads: a name ending in `.taco` or `.tortilla` (local
/// or remote), or a local file starting with the v1 magic ("#y", "WX").
bool is_legacy_v1_file(const std::filesystem::path& path);

/// Opens a v1 file read-only with the surface of any dataset (sql, data, read, read_bytes,
/// read_array): level 0 is the top tortilla's FOOTER, each nested tortilla (file format
/// TORTILLA) is a FOLDER whose children form the next level. A multi-part dataset opens whole
/// from any of its parts (or from the name without `.NNNN.part`); its parts are concatenated.
/// FormatError naming the file for a truncated file, a corrupt header or FOOTER, an unknown v1
/// version or missing parts; IoError when it does not exist.
Dataset load_legacy(const std::filesystem::path& path, const LoadOptions& options = {});

/// Writes the v1 file at `input` as a TACO 2.0 dataset at `output` (ZIP or FOLDER by
/// options.format or the suffix): every sample's bytes copied unchanged, the FOOTER columns kept
/// (tortilla:id -> id, tortilla:file_format TORTILLA -> type FOLDER, offsets -> internal:*),
/// the v1 COLLECTION mapped to COLLECTION.json. Atomic, and refuses an existing output unless
/// options.overwrite, as export_dataset does.
ExportResult migrate(const std::filesystem::path& input, const std::filesystem::path& output,
                     const ExportOptions& options = {});

}  // namespace taco
