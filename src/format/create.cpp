// taco::create: chooses the container, plans the tables and COLLECTION.json, and stages the
// output so that a failure leaves nothing behind.
#include "collection/multipart_create.hpp"
#include "format/collection_json.hpp"
#include "format/create_session.hpp"
#include "format/dataset_writers.hpp"
#include "format/output_target.hpp"
#include "format/overwrite_guard.hpp"
#include "io/staged_output.hpp"
#include "io/trace.hpp"
#include "log/messages.hpp"
#include "model/python_json.hpp"
#include "paths/dataset_names.hpp"
#include "taco/errors.hpp"
#include "taco/parquet_codec.hpp"
#include "taco/writer.hpp"

namespace fs = std::filesystem;

namespace taco {

const char* to_string(ContainerFormat format) {
    switch (format) {
        case ContainerFormat::Auto:
            return "auto";
        case ContainerFormat::Zip:
            return "zip";
        case ContainerFormat::Folder:
            return "folder";
    }
    return "auto";
}

namespace {

// tacotoolbox writes a NaN or infinite dataset-level value as Python's json does, and so does
// tacocore (tacoreader reads it back), but JSON readers outside Python refuse the document.
void warn_about_non_finite(const format::OrderedJson& doc) {
    std::string keys;
    for (const auto& [key, value] : doc.items())
        if (model::has_non_finite(value)) keys += (keys.empty() ? "'" : ", '") + key + "'";
    if (keys.empty()) return;
    log::emit(LogLevel::Warning, "create",
              "COLLECTION.json field " + keys +
                  " holds NaN or Infinity: written as Python's json writes it (tacotoolbox "
                  "and tacoreader do the same), which JSON readers outside Python refuse");
}

void collect_inputs(const Tortilla& tortilla, std::vector<fs::path>& out) {
    for (const Sample& s : tortilla.samples()) {
        if (s.is_file()) {
            if (!s.path().empty()) out.push_back(s.path());
        } else {
            collect_inputs(s.children(), out);
        }
    }
}

}  // namespace

CreateResult create(const Taco& taco, const fs::path& output, const CreateOptions& options) {
    check_zstd_level(options.compression_level);
    if (options.split_size > 0 || !options.group_by.empty()) {
        return collection::create_parts(taco, paths::without_trailing_slashes(output.string()),
                                        options);
    }
    format::PendingSession db;
    return format::create(taco, output, options, db);
}

CreateResult format::create(const Taco& taco, const fs::path& requested_output,
                            const CreateOptions& options, PendingSession& db) {
    // A trailing `/` and a ZIP suffix on a FOLDER are dropped, as tacotoolbox does: CreateResult::
    // path says where the dataset went (format/output_target.hpp).
    const OutputTarget out = resolve_output(requested_output, options.format);
    const ContainerFormat format = out.format;
    const fs::path& target = out.path;
    std::vector<fs::path> inputs;
    if (options.overwrite) {
        collect_inputs(taco.root(), inputs);
        check_replaceable(target, inputs);
    }
    io::StagedOutput staged(target, options.overwrite);

    io::TraceScope trace_all("create: total");
    format::WritePlan plan{taco, options, {}, {}, {}};
    {
        io::TraceScope t("create: level tables + json");
        plan.levels = metadata::build_level_tables(taco);
        const format::OrderedJson doc = format::collection_json(taco, plan.levels);
        warn_about_non_finite(doc);
        plan.collection_json = format::dump_python_style(doc);
    }
    for (const auto& level : plan.levels) {
        for (const auto& row : level.rows) {
            if (row.sample->is_file()) {
                plan.progress.bytes_total += row.sample->size();
                ++plan.progress.files_total;
            }
        }
    }

    CreateResult result;
    result.format = format;
    try {
        result.bytes = format == ContainerFormat::Zip
                           ? format::write_zip_dataset(plan, db, staged.staging())
                           : format::write_folder_dataset(plan, db, staged.staging());
    } catch (const IoError& e) {
        // The user never sees the staging name: report the output they asked for.
        throw IoError(staged.failure(e.what()));
    }
    // What is at the target may have changed while the new dataset was written.
    if (options.overwrite) check_replaceable(target, inputs);
    staged.commit();
    result.path = staged.target();
    for (const auto& level : plan.levels) result.level_rows.push_back(level.rows.size());
    result.files = plan.progress.files_total;
    return result;
}

}  // namespace taco
