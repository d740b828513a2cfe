// Builds a sample tree from a directory, optionally joined with a metadata table: what
// `taco create --from DIR --metadata TABLE` does, without any code from the user.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "format/create_session.hpp"
#include "taco/tortilla.hpp"

namespace taco::toolbox {

struct DirectoryOptions {
    /// Any file DuckDB reads (CSV, Parquet, JSON), one row per sample.
    std::optional<std::filesystem::path> metadata_table;
    /// Column of the table holding each sample's path relative to the directory ('/' separated).
    std::string key_column = "path";
    /// Pad every tortilla (root and folders) to a multiple of this many samples.
    std::optional<size_t> pad_to;
    /// Symbolic links are followed when they resolve inside the directory; one that leads
    /// outside (a link to /etc/passwd, to /) is an IoError unless this is set. Links that lead
    /// back to a directory being listed (a loop) are an IoError either way.
    bool follow_symlinks_outside = false;
    /// Extra columns computed from each sample (`--stac`: ext::stac_from_raster), after the table's
    /// fields are set. Called for every sample of each level that holds at least one FILE, so a
    /// level's samples share the columns; levels of FOLDERs only are left alone.
    std::function<std::vector<Field>(const Sample&)> derive_fields;
    /// Threads for derive_fields on FILE samples (0 = one per core). The results and the first
    /// error (in sample order) are the same as with one thread: each sample's fields are
    /// computed on their own and put back in order, so the output is byte-identical.
    unsigned derive_threads = 0;
};

/// Every regular file becomes a FILE sample (id = file name), every sub-directory a FOLDER
/// sample, entries sorted by name; hidden entries (names starting with '.') are skipped.
/// Table columns other than the key become extension fields of the samples they match; at each
/// level, a column that has values there is given to every sample of that level (null where the
/// table has no value). Throws IoError / SchemaError naming the path, row or column at fault.
/// The table is read through `db`, on a second thread while the directory is listed.
Tortilla tortilla_from_directory(const std::filesystem::path& dir, const DirectoryOptions& options,
                                 format::PendingSession& db);

}  // namespace taco::toolbox
