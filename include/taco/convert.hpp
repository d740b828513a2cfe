// Conversions between datasets (spec §7.3-§7.4): `export_dataset` writes the rows of a level-0
// view (any filtered Dataset: sql(), and later filter_bbox/filter_datetime) with their whole
// subtrees as a new ZIP or FOLDER dataset; `convert` turns a ZIP into a FOLDER and back without
// losing anything. Sample bytes are copied range to range, never decoded.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "taco/dataset.hpp"
#include "taco/writer.hpp"

namespace taco {

struct ExportProgress {
    uint64_t bytes_done = 0;
    uint64_t bytes_total = 0;
    size_t files_done = 0;
    size_t files_total = 0;
};

struct ExportOptions {
    /// Auto: `.zip` / `.tacozip` (any case) -> ZIP, anything else -> FOLDER (as create()).
    ContainerFormat format = ContainerFormat::Auto;
    /// Replace an existing output (a TACO dataset holding none of the inputs), only once the new
    /// one is complete.
    bool overwrite = false;
    /// zstd level of the rewritten METADATA/levelN.parquet files.
    int compression_level = 3;
    /// Their codec, as CreateOptions::level_codec (LZ4_RAW unless asked otherwise).
    ParquetCodec level_codec = ParquetCodec::Lz4Raw;
    /// Called after each sample file is copied (from the copying thread).
    std::function<void(const ExportProgress&)> progress;
};

struct ExportResult {
    std::filesystem::path path;
    ContainerFormat format = ContainerFormat::Zip;
    std::vector<size_t> level_rows;  // rows of each written level table (padding included)
    size_t files = 0;                // FILE samples copied (padding included)
    uint64_t sample_bytes = 0;       // bytes of those samples
    double seconds = 0;              // the whole call: tree, sample bytes, metadata, rename
    double copy_seconds = 0;         // of which copying sample bytes (GB/s of sample bytes)
    double copy_cpu_seconds = 0;     // CPU time (user + system) of that copy: what a busy
                                     // machine does not stretch
};

/// Writes the rows of `view` (a level-0 view of a loaded, concatenated or collection dataset,
/// local or remote) and every sample below them as a new dataset at `output`:
///  - bytes of each FILE sample copied unchanged (copy_file_range locally, range reads remotely);
///    a FOLDER's children are found through its `__meta__`, as read() finds them;
///  - level tables keep every column of the source levels (the view only selects rows), with
///    internal:current_id/parent_id renumbered and internal:offset/size rewritten for the new
///    container; `__meta__` tables rebuilt;
///  - COLLECTION.json: the source's, with taco:pit_schema counts for the kept rows, the extent
///    recomputed from the kept rows' STAC/ISTAC centroids and times (kept as it was without such
///    columns), and `taco:subset_of` / `taco:subset_date` added as the reference's export did.
/// Padding samples at level 0 are hidden by views, so they are not exported; padding inside a
/// kept FOLDER is. Built under a temporary name and renamed: on any error nothing is left.
/// Errors: QueryError (the view keeps no row, is not a level-0 view, or cannot be run),
/// SchemaError (two kept rows share an id, e.g. a concat of datasets with the same ids),
/// IoError (output exists without overwrite, read or write failures), FormatError (damaged
/// source, a path in the source that would leave the output).
ExportResult export_dataset(const Dataset& view, const std::filesystem::path& output,
                            const ExportOptions& options = {});

/// zip2folder / folder2zip (spec §7.4): the dataset at `input` (local or remote, ZIP or FOLDER)
/// written at `output` in the other container (or options.format), every row kept, padding
/// included, COLLECTION.json byte for byte, sample bytes identical. A round trip
/// ZIP -> FOLDER -> ZIP gives the same entries, bytes and metadata.
ExportResult convert_dataset(const std::filesystem::path& input,
                             const std::filesystem::path& output,
                             const ExportOptions& options = {});

}  // namespace taco
