// `create`: writes a Taco as a ZIP (`.tacozip` / `.zip`) or FOLDER dataset (spec §6, FORMAT.md
// §2-§5), following the reference byte layout with correct offsets everywhere.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <vector>

#include "taco/collection.hpp"
#include "taco/parquet_codec.hpp"

namespace taco {

enum class ContainerFormat { Auto, Zip, Folder };
const char* to_string(ContainerFormat format);  // "auto" / "zip" / "folder"

struct CreateProgress {
    uint64_t bytes_done = 0;
    uint64_t bytes_total = 0;
    size_t files_done = 0;
    size_t files_total = 0;
};

struct CreateOptions {
    /// Auto: `.zip` / `.tacozip` (any case) -> ZIP, anything else -> FOLDER.
    ContainerFormat format = ContainerFormat::Auto;
    /// Replace an existing output (only after the new one is complete).
    bool overwrite = false;
    /// zstd level and row-group size of the METADATA/levelN.parquet files. Level 3 (zstd's own
    /// default): on a 1M-row table it is within 2% of level 13 in size and 3-4x faster.
    int compression_level = 3;
    uint64_t row_group_size = 65536;
    /// Codec of the METADATA/levelN.parquet files (taco/parquet_codec.hpp): LZ4_RAW decodes ~2x
    /// faster than zstd, so every query that reads a level table does; zstd is ~35% smaller.
    /// compression_level applies to zstd only. __meta__ files stay zstd, as the reference's.
    ParquetCodec level_codec = ParquetCodec::Lz4Raw;
    /// Called after each sample file is written (from the writing thread).
    std::function<void(const CreateProgress&)> progress;
    /// Multi-part ZIP output (src/collection/, USER-GUIDE "Collections"). split_size > 0: level-0
    /// samples go to consecutive parts `<stem>_part0001<ext>`, ... of at most this many sample
    /// bytes each (a larger sample gets a part of its own), as tacotoolbox counts them.
    uint64_t split_size = 0;
    /// Not empty: one part `<stem>_<value><ext>` per distinct value of these level-0 columns (in
    /// order of first appearance; with several columns the value is theirs joined by '_', as
    /// tacotoolbox does; made safe for a file name); with split_size, a group larger than it is
    /// split into `<stem>_<value>_part0001<ext>`, ...
    std::vector<std::string> group_by;
    /// With more than one part: also write the `.tacocat/` index beside them (tacotoolbox's
    /// `consolidate`). Off: only the parts, which `taco tacocat` can index later.
    bool consolidate = true;
};

struct CreateResult {
    std::filesystem::path path;
    ContainerFormat format = ContainerFormat::Zip;
    uint64_t bytes = 0;              // size of the ZIP, or total bytes written into the folder
    std::vector<size_t> level_rows;  // rows of each level table (padding included)
    size_t files = 0;                // FILE samples written (padding included)
    /// Multi-part output: every part written, in order (`path` is the first), and the
    /// `.tacocat/` index beside them when there is more than one part (else empty).
    std::vector<std::filesystem::path> parts;
    std::filesystem::path index;
};

/// "4GB", "512MB", "100KiB", "2048" (bytes): binary units as tacotoolbox parses them (K/KB/KiB =
/// 1024, M.. = 1024^2, G.. = 1024^3, T.. = 1024^4; decimals allowed). SchemaError otherwise.
uint64_t parse_size(const std::string& text);

/// Writes `taco` to `output`. Builds under a temporary name beside `output` and renames at the
/// end: on any error nothing is left behind. Throws IoError if `output` exists and !overwrite.
/// With split_size or group_by, writes ZIP parts (in parallel) and their `.tacocat/` index
/// beside `output` (all staged, then renamed); SchemaError when group_by names no level-0
/// column or a sample has no value there, IoError when a part or the index exists.
CreateResult create(const Taco& taco, const std::filesystem::path& output,
                    const CreateOptions& options = {});

}  // namespace taco
