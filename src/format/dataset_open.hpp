// Finding what a path holds and where its metadata lives, for readers and the validator:
// container detection (REFERENCE-API §A3), TACO_HEADER / METADATA lookup, COLLECTION.json.
// No DuckDB here: the level tables are only located, not read.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "format/collection_schema.hpp"
#include "io/byte_source.hpp"
#include "io/location.hpp"
#include "paths/path_anchor.hpp"
#include "taco/writer.hpp"

namespace taco::format {

/// Where one consolidated level table lives.
struct LevelSource {
    std::string name;            // "METADATA/level0.parquet", as messages call it
    std::filesystem::path file;  // FOLDER: the Parquet file
    uint64_t offset = 0;         // ZIP: its data range inside the archive
    uint64_t size = 0;
    std::shared_ptr<io::ByteSource> source;  // remote FOLDER: the fetched file (offset 0)
    /// Remote FOLDER opened with a warm metadata cache: `source` is the cached copy, not yet
    /// checked against the server at `unverified` (the open validates COLLECTION.json only; the
    /// reader checks each table before a query first uses it: query::ensure_levels_current).
    std::optional<io::Location> unverified;
};

struct OpenedDataset {
    std::filesystem::path path;  // as given
    ContainerFormat format = ContainerFormat::Zip;
    /// Absolute, symlink-resolved path of the ZIP file or dataset directory (no trailing '/'):
    /// the base of every `internal:gdal_vsi` (REFERENCE-API §A10).
    std::string vsi_root;
    std::shared_ptr<io::ByteSource> archive;  // ZIP only
    CollectionDocument collection;
    std::vector<LevelSource> levels;
    /// A collection index (`.tacocat/`, `__TACOCAT__`; src/collection/): the directory the parts
    /// named by `internal:source_file` live in, ending in '/'. Empty for a single dataset.
    std::string parts_root;
    /// The query string of a remote index's URL (`?token=…`, io::split_query), asked with every
    /// part after its name; empty otherwise.
    std::string parts_query;
    /// A legacy v1 file (src/legacy/): each FOLDER (nested tortilla) by the absolute offset of its
    /// bytes, with its level and internal:current_id; its children are the next level's rows
    /// whose internal:parent_id is that id (a nested tortilla holds no __meta__).
    std::unordered_map<uint64_t, std::pair<size_t, int64_t>> legacy_folders;
    /// Descriptors standing for paths that are not UTF-8 (paths/path_anchor.hpp): vsi_root,
    /// parts_root and level files may be /proc/self/fd/N spellings valid while these live.
    std::vector<std::shared_ptr<const paths::PathAnchor>> anchors;
};

/// Zip or Folder for a loadable path. Throws FormatError for legacy v1 files (`.taco`,
/// `.tortilla`, `tacofoundation:`), TACOCAT layouts (`.tacocat`, `<dir>/.tacocat/`,
/// `__TACOCAT__`) and anything else that is not a dataset; IoError when the path does not exist.
/// A regular file whose first entry is TACO_HEADER counts as ZIP whatever its suffix.
ContainerFormat detect_container(const std::filesystem::path& path);

/// Detects the container, then reads the TACO_HEADER (ZIP) or probes METADATA/ (FOLDER), and
/// parses COLLECTION.json. Every level range is checked to lie inside the file and to look like
/// Parquet (PAR1 at both ends). A collection index (`.tacocat/`, `__TACOCAT__`) opens through
/// src/collection/, with `base_path` (if not empty) as the directory of its parts.
OpenedDataset open_dataset(const std::filesystem::path& path, const std::string& base_path = "");
OpenedDataset open_zip_dataset(const std::filesystem::path& path);
OpenedDataset open_folder_dataset(const std::filesystem::path& path);
/// A ZIP read through `archive`, its gdal_vsi paths based on `vsi_root` (remote_dataset_open.cpp).
OpenedDataset open_zip_source(const std::filesystem::path& path,
                              std::shared_ptr<io::ByteSource> archive, std::string vsi_root);
/// How many level tables a dataset whose directory cannot be listed (remote) has: one per depth
/// of its PIT, as COLLECTION.json says (no probing for files that may not exist).
size_t expected_level_count(const CollectionDocument& collection);

/// A remote location (io::is_remote): ZIP by its TACO_HEADER, FOLDER by its known file names.
/// A FOLDER's cached level tables are left unverified (LevelSource::unverified) unless
/// `validate_all` (the validator, which reads them all at once).
OpenedDataset open_remote_dataset(const std::filesystem::path& path, bool validate_all = false);

/// `path` made absolute with symlinks resolved, as Python's Path.resolve() does.
std::string resolved_path(const std::filesystem::path& path);
/// resolved_path(path) spelt for DuckDB SQL and GDAL (paths::anchor_path): unchanged when it is
/// UTF-8, else /proc/self/fd/N[/rest] of a descriptor added to `anchors`.
std::string sql_root(const std::filesystem::path& path,
                     std::vector<std::shared_ptr<const paths::PathAnchor>>& anchors);

}  // namespace taco::format
