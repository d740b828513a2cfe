// taco::create: chooses the container, plans the tables and COLLECTION.json, and stages the
// output so that a failure leaves nothing behind.
#include <algorithm>
#include <cctype>

#include "collection/multipart_create.hpp"
#include "format/collection_json.hpp"
#include "format/create_session.hpp"
#include "format/dataset_writers.hpp"
#include "format/overwrite_guard.hpp"
#include "io/staged_output.hpp"
#include "io/trace.hpp"
#include "taco/errors.hpp"
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

ContainerFormat resolve_format(const fs::path& output, ContainerFormat requested) {
    if (requested != ContainerFormat::Auto) return requested;
    std::string ext = output.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    return (ext == ".zip" || ext == ".tacozip") ? ContainerFormat::Zip : ContainerFormat::Folder;
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
    if (options.split_size > 0 || !options.group_by.empty()) {
        return collection::create_parts(taco, output, options);
    }
    format::PendingSession db;
    return format::create(taco, output, options, db);
}

CreateResult format::create(const Taco& taco, const fs::path& output, const CreateOptions& options,
                            PendingSession& db) {
    ContainerFormat format = resolve_format(output, options.format);
    fs::path target = output;
    if (format == ContainerFormat::Folder) {
        std::string name = fs::absolute(output).lexically_normal().filename().string();
        if (name == ".tacocat" || name == "DATA" || name == "METADATA") {
            throw IoError("a FOLDER dataset cannot be named '" + name +
                          "' (reserved): " + output.string());
        }
    }
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
        plan.collection_json =
            format::dump_python_style(format::collection_json(taco, plan.levels));
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
        throw IoError(staged.as_target(e.what()) + " (nothing was written)");
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
