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
#include "format/output_target.hpp"
#include "format/overwrite_guard.hpp"
#include "io/staged_output.hpp"
#include "query/vsi_path.hpp"
#include "taco/convert.hpp"
#include "taco/errors.hpp"
#include "taco/parquet_codec.hpp"
#include "taco/validate.hpp"

namespace fs = std::filesystem;

namespace taco {
namespace {

// Every error finding counts, but one: the reference writer's level >= 1 offsets point at
// another folder's entries when folder ids are not sorted (FORMAT.md §4.3, `nested.tacozip`),
// and conversions locate children through `__meta__` and write correct offsets.
bool blocks_conversion(const Finding& f) {
    if (f.severity != Severity::Error) return false;
    return !(f.code == "zip.offset-mismatch" && f.location.rfind("METADATA/level", 0) == 0 &&
             f.location.rfind("METADATA/level0.", 0) != 0);
}

// The first findings that block, for a refusal that names them; "" when none does.
std::string first_errors(const ValidationReport& report) {
    std::string out;
    size_t errors = 0;
    for (const Finding& f : report.findings) {
        if (!blocks_conversion(f) || ++errors > 3) continue;
        out += (out.empty() ? "" : "; ") + f.location + ": " + f.message + " [" + f.code + "]";
    }
    if (errors > 3) out += "; and " + std::to_string(errors - 3) + " more";
    return out;
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

ExportResult run_export(const Dataset& view, const fs::path& requested_output,
                        const ExportOptions& options, const convert::RootSelection& roots,
                        bool keep_collection, bool subset = true) {
    check_zstd_level(options.compression_level);
    query::DatasetContext& ctx = *convert::DatasetAccess::context(view);
    const std::string name = view.path().string();
    // The same naming rule as create's (format/output_target.hpp).
    const format::OutputTarget target = format::resolve_output(requested_output, options.format);
    const ContainerFormat format = target.format;
    const fs::path& output = target.path;
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
        throw IoError(staged.failure(e.what()));
    }
    if (!keep_collection) {
        // An export copies what the view selects without re-deriving everything (the PIT
        // schema's shape, the ids of every level): a damaged source could make an invalid
        // dataset. Checked before it replaces anything (convert checks its input instead).
        const std::string errors = staged.as_target(first_errors(validate(staged.staging())));
        if (!errors.empty()) {
            throw FormatError(name +
                              ": the exported dataset would not be valid, so nothing was written "
                              "(if `taco validate " +
                              name +
                              "` finds the source valid, this is a tacocore defect: please "
                              "report it): " +
                              errors);
        }
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
    // A conversion promises every sample, byte and value: an input the validator finds errors
    // in (a parent id pointing nowhere, two siblings with one id, an offset outside its entry, a
    // PIT schema the tables contradict) would be copied with samples missing or wrong. The
    // check reads the metadata, not the samples' bytes (~5% of a conversion).
    const std::string errors = first_errors(validate(input));
    if (!errors.empty()) {
        throw FormatError(input.string() +
                          ": not a valid TACO dataset, so it cannot be converted losslessly "
                          "(nothing was written; `taco validate` lists every error): " +
                          errors);
    }
    ExportOptions opts = options;
    if (opts.format == ContainerFormat::Auto) {
        // A `.zip` / `.tacozip` name means ZIP; any other name means the other container.
        opts.format =
            format::resolve_output(output, ContainerFormat::Auto).format == ContainerFormat::Zip ||
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
