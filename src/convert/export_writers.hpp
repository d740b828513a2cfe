// The two containers an export writes, in the reference's layout (FORMAT.md §2.1, §3): the
// bytes of every kept sample, one __meta__ per FOLDER, the level tables, COLLECTION.json.
#pragma once

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
    double copy_seconds = 0;  // time spent copying sample bytes (ExportResult::copy_seconds)

    void file_copied(uint64_t bytes);
};

/// Each writes the dataset at `path` (a staging path that does not exist). Call with
/// ctx.db_mutex held. Returns bytes written.
uint64_t write_zip_export(ExportJob& job, const std::filesystem::path& path);
uint64_t write_folder_export(ExportJob& job, const std::filesystem::path& path);

}  // namespace taco::convert
