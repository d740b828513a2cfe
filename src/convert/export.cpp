// taco::export_dataset and taco::convert: build the tree of kept rows, stage the output beside
// its target, write it in the chosen container, rename it into place.
#include <algorithm>
#include <cctype>
#include <chrono>
#include <mutex>

#include "convert/collection_rewrite.hpp"
#include "convert/dataset_access.hpp"
#include "convert/export_tree.hpp"
#include "convert/export_whole.hpp"
#include "convert/export_writers.hpp"
#include "format/overwrite_guard.hpp"
#include "io/staged_output.hpp"
#include "query/vsi_path.hpp"
#include "taco/convert.hpp"
#include "taco/errors.hpp"

namespace fs = std::filesystem;

namespace taco {
namespace {

ContainerFormat resolve_format(const fs::path& output, ContainerFormat requested) {
    if (requested != ContainerFormat::Auto) return requested;
    std::string ext = output.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    return (ext == ".zip" || ext == ".tacozip") ? ContainerFormat::Zip : ContainerFormat::Folder;
}

// Bytes to copy, where the paths say it without opening anything (ZIP sources).
uint64_t known_bytes(const convert::ExportTree& tree) {
    uint64_t total = 0;
    for (const auto& level : tree.levels) {
        for (const auto& r : level) {
            if (r.folder || r.vsi.empty()) continue;
            if (const auto ref = query::parse_vsi_subfile(r.vsi)) total += ref->size;
        }
    }
    return total;
}

ExportResult run_export(const Dataset& view, const fs::path& output, const ExportOptions& options,
                        const convert::RootSelection& roots, bool keep_collection,
                        bool subset = true) {
    query::DatasetContext& ctx = *convert::DatasetAccess::context(view);
    const std::string name = view.path().string();
    const ContainerFormat format = resolve_format(output, options.format);
    if (format == ContainerFormat::Folder) {
        const std::string leaf = fs::absolute(output).lexically_normal().filename().string();
        if (leaf == ".tacocat" || leaf == "DATA" || leaf == "METADATA") {
            throw IoError("a FOLDER dataset cannot be named '" + leaf +
                          "' (reserved): " + output.string());
        }
    }
    const auto started = std::chrono::steady_clock::now();
    std::vector<fs::path> inputs = view.sources();
    if (options.overwrite) format::check_replaceable(output, inputs);
    // Checked before any work: an existing output is refused without overwrite.
    io::StagedOutput staged(output, options.overwrite);

    convert::ExportTree tree = convert::build_tree(ctx, roots, view.level_count(), name);
    const metadata::ParquetOptions level_options{options.compression_level, 65536,
                                                 options.level_codec};
    convert::ExportJob job{ctx, tree, level_options, nullptr, options.progress, {}, 0};
    job.done.files_total = tree.files;
    job.done.bytes_total = known_bytes(tree);
    const std::string source_json = view.collection_json();
    job.collection_json = [&](convert::ExportTables& tables) {
        return keep_collection ? source_json
                               : convert::export_collection_json(source_json, tree, tables, ctx.db,
                                                                 name, subset);
    };

    ExportResult result;
    result.format = format;
    try {
        std::lock_guard lock(ctx.db_mutex);
        if (format == ContainerFormat::Zip) {
            convert::write_zip_export(job, staged.staging());
        } else {
            convert::write_folder_export(job, staged.staging());
        }
    } catch (const IoError& e) {
        // The user never sees the staging name: report the output they asked for.
        throw IoError(staged.as_target(e.what()) + " (nothing was written)");
    }
    if (options.overwrite) format::check_replaceable(output, inputs);
    staged.commit();
    result.path = staged.target();
    for (const auto& level : tree.levels) result.level_rows.push_back(level.size());
    result.files = tree.files;
    result.sample_bytes = job.sample_bytes;
    result.copy_seconds = job.copy_seconds;
    result.copy_cpu_seconds = job.copy_cpu_seconds;
    result.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return result;
}

}  // namespace

ExportResult export_dataset(const Dataset& view, const fs::path& output,
                            const ExportOptions& options) {
    if (convert::DatasetAccess::level(view) != 0) {
        throw QueryError(view.path().string() +
                         ": export needs a view of level 0 (its rows are "
                         "the samples exported with their subtrees); this view is of level " +
                         std::to_string(convert::DatasetAccess::level(view)));
    }
    convert::RootSelection roots;
    roots.view_sql = convert::DatasetAccess::view_sql(view);
    return run_export(view, output, options, roots, false);
}

ExportResult convert_dataset(const fs::path& input, const fs::path& output,
                             const ExportOptions& options) {
    const Dataset ds = load(input);
    ExportOptions opts = options;
    if (opts.format == ContainerFormat::Auto) {
        // A `.zip` / `.tacozip` name means ZIP; any other name means the other container.
        opts.format = resolve_format(output, ContainerFormat::Auto) == ContainerFormat::Zip ||
                              ds.format() == ContainerFormat::Folder
                          ? ContainerFormat::Zip
                          : ContainerFormat::Folder;
    }
    convert::RootSelection roots;
    roots.all_rows = true;
    return run_export(ds, output, opts, roots, true);
}

ExportResult export_whole(const Dataset& dataset, const fs::path& output,
                          const ExportOptions& options) {
    convert::RootSelection roots;
    roots.all_rows = true;
    return run_export(dataset, output, options, roots, false, false);
}

}  // namespace taco
