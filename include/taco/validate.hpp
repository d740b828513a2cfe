// Full compliance check of a dataset on disk against the TACO 2.0 specification and the byte
// layout the reference reader depends on (FORMAT.md §2-§5): container structure, every offset,
// the level tables, the `__meta__` files, PIT-1/PIT-2 and COLLECTION.json.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "taco/writer.hpp"

namespace taco {

enum class Severity { Error, Warning, Info };
const char* to_string(Severity severity);  // "error" / "warning" / "info"

struct Finding {
    Severity severity = Severity::Error;
    /// Stable machine-readable kind, e.g. "zip.offset-mismatch", "pit.children",
    /// "collection.field".
    std::string code;
    /// Where: a file inside the dataset and, when it applies, the row and sample path, e.g.
    /// "METADATA/level1.parquet row 3 (europe/item_0)".
    std::string location;
    std::string message;
};

struct ValidationReport {
    std::filesystem::path path;
    /// Zip or Folder once detected; Auto when the container could not be identified.
    ContainerFormat format = ContainerFormat::Auto;
    std::vector<Finding> findings;
    /// Findings left out because one check produced more than ValidateOptions::max_per_check.
    size_t suppressed = 0;

    size_t count(Severity severity) const;
    /// True when there is no finding of severity Error.
    bool valid() const { return count(Severity::Error) == 0; }
};

struct ValidateOptions {
    /// At most this many findings per check and file; the rest are counted in `suppressed` and
    /// summarised by one extra finding.
    size_t max_per_check = 50;
    /// Also recompute the CRC-32 of every ZIP entry (reads every byte of the archive).
    bool check_crc = false;
    /// Also open every FILE sample that is a GeoTIFF and report whether it is a TACO-optimized
    /// GeoTIFF (taco/tog.hpp): info `tog.optimized` or warning `tog.not-optimized` with the
    /// reasons. Reads the samples' headers (a few requests each when remote).
    bool check_tog = false;
};

/// Validates the dataset at `path`. Problems with the data are findings, never exceptions; only
/// a path that does not exist or cannot be read throws IoError.
ValidationReport validate(const std::filesystem::path& path, const ValidateOptions& options = {});

}  // namespace taco
