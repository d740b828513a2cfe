// The two containers an export writes, in the reference's layout (FORMAT.md §2.1, §3): the
// bytes of every kept sample, one __meta__ per FOLDER, the level tables, COLLECTION.json.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <string>

#include "convert/export_tables.hpp"
#include "convert/export_tree.hpp"
#include "query/dataset_context.hpp"
#include "taco/convert.hpp"

namespace taco::convert {

struct ExportJob {
    query::DatasetContext& ctx;
    ExportTree& tree;
    metadata::ParquetOptions level_options;
    /// COLLECTION.json of the output, asked for once every level is staged.
    std::function<std::string(ExportTables&)> collection_json;
    std::function<void(const ExportProgress&)> progress;
    ExportProgress done;
    uint64_t sample_bytes = 0;
    double copy_seconds = 0;      // time spent copying sample bytes (ExportResult::copy_seconds)
    double copy_cpu_seconds = 0;  // this thread's CPU time in those copies

    /// Runs `copy`, adding its wall and CPU time to copy_seconds / copy_cpu_seconds.
    template <typename Copy>
    auto timed_copy(Copy&& copy) {
        const auto wall = std::chrono::steady_clock::now();
        const double cpu = thread_cpu_seconds();
        auto result = copy();
        copy_seconds +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count();
        copy_cpu_seconds += thread_cpu_seconds() - cpu;
        return result;
    }
    static double thread_cpu_seconds();

    void file_copied(uint64_t bytes);
};

/// Each writes the dataset at `path` (a staging path that does not exist). Call with
/// ctx.db_mutex held. Returns bytes written.
uint64_t write_zip_export(ExportJob& job, const std::filesystem::path& path);
uint64_t write_folder_export(ExportJob& job, const std::filesystem::path& path);

}  // namespace taco::convert
