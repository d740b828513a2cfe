// Finding and opening a collection index (spec §6.5, §8.1; FORMAT.md §6): the `.tacocat/`
// folder the reference writes today and the single file `__TACOCAT__`. The result is an
// OpenedDataset whose level tables are the consolidated ones (every row names its part in
// `internal:source_file`) and whose `parts_root` says where the parts are.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "format/dataset_open.hpp"
#include "io/location.hpp"

namespace taco::collection {

enum class IndexLayout { Folder, File };

struct IndexLocation {
    IndexLayout layout = IndexLayout::Folder;
    std::filesystem::path index;      // the .tacocat directory or the __TACOCAT__ file
    std::filesystem::path parts_dir;  // where the parts are unless base_path says otherwise
};

/// Where the index of `path` is, when `path` is one: a directory named `.tacocat`, a file named
/// `__TACOCAT__`, or a directory without COLLECTION.json holding `.tacocat/COLLECTION.json` or
/// `__TACOCAT__` (tacoreader's order: a FOLDER dataset's own COLLECTION.json wins).
std::optional<IndexLocation> find_index(const std::filesystem::path& path);

/// Opens the index: COLLECTION.json parsed, every level table located (files of `.tacocat/`,
/// ranges of `__TACOCAT__`, each checked to look like Parquet). `base_path` (spec §8.1), when
/// not empty, replaces the directory of the parts. FormatError naming the file otherwise.
format::OpenedDataset open_index(const IndexLocation& where, const std::string& base_path);

/// The layout of a remote location that names an index (its last component is `.tacocat` or
/// `__TACOCAT__`), decided without a request; nullopt otherwise. Remote directories are not
/// probed for an index inside them (it would cost requests on every remote load): users name
/// the index, as they do with tacoreader.
std::optional<IndexLayout> remote_index_layout(std::string_view location);

/// Opens a remote index: `.tacocat/` by its known file names (COLLECTION.json and as many level
/// tables as its PIT is deep: no listing), `__TACOCAT__` by its header and one merged range. The
/// parts are beside the index unless `base_path`; they are opened when first read.
format::OpenedDataset open_remote_index(const io::Location& index, IndexLayout layout,
                                        const std::string& base_path);

}  // namespace taco::collection
