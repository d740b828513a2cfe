// Following `internal:gdal_vsi` paths: a FOLDER's children come from its `__meta__` table (the
// authoritative source; the consolidated level >= 1 offsets of some reference files are wrong,
// FORMAT.md §4.3), a FILE's bytes come straight from the container.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "io/byte_source.hpp"
#include "metadata/result_table.hpp"
#include "query/dataset_context.hpp"

namespace taco::query {

/// The children of the FOLDER sample `folder_id` whose `internal:gdal_vsi` is `folder_vsi`: the
/// rows of its `__meta__` (padding hidden) plus their own `internal:gdal_vsi`. FormatError or
/// NavigationError naming the folder when the `__meta__` is missing, unreadable or lacks the
/// columns navigation needs.
/// `from` (with the FOLDER's `row` in it) is the table the FOLDER was found in: when reads keep
/// missing the cache at its level, other FOLDERs of it (and of the children tables read before at
/// that level) are read in the same statement and cached (query/meta_readahead.hpp). Without it,
/// only this `__meta__` is read.
std::shared_ptr<const metadata::ResultTable> read_folder_children(DatasetContext& ctx,
                                                                  std::string_view folder_vsi,
                                                                  std::string_view folder_id,
                                                                  const FolderRows* from = nullptr,
                                                                  size_t row = 0);

/// Reads the `__meta__` of `folders` not cached yet, up to 64 per DuckDB statement, into the
/// children cache, for a caller that will ask for each of them next (export). Those that cannot
/// be batched are left for read_folder_children() to read on their own, with its errors.
void read_folders_ahead(DatasetContext& ctx, const std::vector<FolderRef>& folders);

/// Where the bytes of a FILE sample are.
struct FileRange {
    std::shared_ptr<io::ByteSource> source;
    uint64_t offset = 0;
    uint64_t size = 0;
};

/// Names a sample in error messages ("'europe/item_0'"). Only called when something fails, so the
/// hot paths never build the text (or even touch the id).
using SampleName = std::function<std::string()>;

/// Refuses (FormatError) a local path of a FOLDER dataset that does not name something inside
/// the DATA/ of the dataset (or of one of its concatenated parts): a '..', '.' or empty component,
/// a FILE called `__meta__`, or a symlink resolving outside the dataset. `/vsisubfile/` and
/// remote paths pass. Called before any byte of a FOLDER sample or `__meta__` is read.
void check_inside_dataset(const DatasetContext& ctx, std::string_view vsi, bool meta,
                          const SampleName& name);

/// Resolves a FILE sample's `internal:gdal_vsi`. The dataset's own archive is reused (no open);
/// FOLDER files are opened. FormatError when the range lies outside the archive, IoError when the
/// file is missing or the path is remote.
FileRange locate_file(DatasetContext& ctx, std::string_view file_vsi, const SampleName& name);

/// Size of a FILE sample, without opening anything when the path says it (ZIP).
uint64_t file_size(DatasetContext& ctx, std::string_view file_vsi, const SampleName& name);

}  // namespace taco::query
