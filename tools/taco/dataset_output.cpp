#include "dataset_output.hpp"

#include <chrono>
#include <iostream>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "output.hpp"
#include "progress.hpp"

namespace taco::cli {

void add_level_codec_option(CLI::App* sub, std::string& codec) {
    sub->add_option("--level-codec", codec,
                    "Codec of the METADATA/levelN.parquet tables written: lz4_raw (default; "
                    "queries decode them ~2x faster) or zstd (~35% smaller, the reference's "
                    "choice; better for datasets read remotely)")
        ->check(CLI::IsMember({"lz4_raw", "lz4", "zstd"}, CLI::ignore_case));
}

void DatasetOutputArgs::add_to(CLI::App* sub, const std::string& format_help) {
    sub->add_option("--format", format, format_help)
        ->check(CLI::IsMember({"auto", "zip", "folder"}));
    add_level_codec_option(sub, level_codec);
    sub->add_flag("--overwrite", overwrite,
                  "Replace an existing output dataset (once the new one is complete)");
    sub->add_flag("--json", json, "Print the result as JSON");
    sub->add_flag("-q,--quiet", quiet, "Print nothing on success");
}

int write_dataset_output(const DatasetOutputArgs& a,
                         const std::function<ExportResult(const ExportOptions&)>& write,
                         const std::function<std::string(const ExportResult&)>& summary,
                         std::chrono::steady_clock::time_point start) {
    ExportOptions opts;
    opts.format = a.format == "zip"      ? ContainerFormat::Zip
                  : a.format == "folder" ? ContainerFormat::Folder
                                         : ContainerFormat::Auto;
    opts.overwrite = a.overwrite;
    opts.level_codec = parse_parquet_codec(a.level_codec);
    ProgressBar bar(!a.quiet && !a.json);
    if (bar.enabled()) {
        opts.progress = [&](const ExportProgress& p) {
            bar.update(p.bytes_done, p.bytes_total,
                       std::to_string(p.files_done) + "/" + std::to_string(p.files_total) +
                           " files, " + human_bytes(p.bytes_done));
        };
    }
    const ExportResult r = write(opts);
    bar.finish();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (a.json) {
        nlohmann::ordered_json j;
        j["path"] = r.path.string();
        j["format"] = to_string(r.format);
        j["samples"] = r.level_rows.empty() ? 0 : r.level_rows[0];
        j["files"] = r.files;
        j["sample_bytes"] = r.sample_bytes;
        j["levels"] = r.level_rows;
        j["seconds"] = seconds;
        j["export_seconds"] = r.seconds;             // the writing itself, without loading
        j["copy_seconds"] = r.copy_seconds;          // of which copying sample bytes
        j["copy_cpu_seconds"] = r.copy_cpu_seconds;  // CPU time of that copy
        print_json(std::cout, j);
    } else if (!a.quiet) {
        std::cout << summary(r) << " in " << seconds << " s\n";
    }
    return kExitOk;
}

}  // namespace taco::cli
