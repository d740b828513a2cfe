// The output side shared by the commands that write one whole dataset from another (`export`,
// `convert`, `migrate`): the --format/--overwrite/--json/--quiet options, the byte progress bar
// and the result report, so the three commands say and accept the same things.
#pragma once

#include <chrono>
#include <functional>
#include <string>

#include <CLI/CLI.hpp>

#include "taco/convert.hpp"

namespace taco::cli {

/// Adds --level-codec (lz4_raw, lz4 or zstd, any case; parse_parquet_codec reads it) to `sub`:
/// `taco create` and the commands below share its wording.
void add_level_codec_option(CLI::App* sub, std::string& codec);

struct DatasetOutputArgs {
    std::string format = "auto";
    std::string level_codec = "lz4_raw";
    bool overwrite = false, json = false, quiet = false;

    /// Adds --format (help text `format_help`), --level-codec, --overwrite, --json and -q/--quiet
    /// to `sub`.
    void add_to(CLI::App* sub, const std::string& format_help);
};

/// Runs `write` with ExportOptions built from `a` and a progress bar on a terminal, then prints
/// the result: JSON with --json, else `summary(result)` + " in <seconds> s" unless --quiet. The
/// time counts from `start` (the command's own start, loading included).
int write_dataset_output(const DatasetOutputArgs& a,
                         const std::function<ExportResult(const ExportOptions&)>& write,
                         const std::function<std::string(const ExportResult&)>& summary,
                         std::chrono::steady_clock::time_point start);

}  // namespace taco::cli
