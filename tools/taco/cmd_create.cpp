// `taco create --from DIR OUTPUT`: a dataset from a directory tree, no code needed.
#include <chrono>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "create_on_dask.hpp"
#include "create_stats.hpp"
#include "dataset_output.hpp"
#include "error_report.hpp"
#include "ext/stac_from_raster.hpp"
#include "format/collection_parse.hpp"
#include "format/create_session.hpp"
#include "io/file.hpp"
#include "output.hpp"
#include "progress.hpp"
#include "taco/errors.hpp"
#include "taco/extensions.hpp"
#include "taco/writer.hpp"
#include "toolbox/directory_source.hpp"

namespace taco::cli {
namespace {

struct CreateArgs {
    std::string from, output, collection_file, metadata, key = "path", format = "auto";
    std::string id, description, title, dataset_version, taco_version, split_size;
    std::vector<std::string> group_by;
    std::vector<std::string> licenses, providers, tasks, keywords;
    size_t pad_to = 0;
    bool overwrite = false, json = false, quiet = false, follow_symlinks = false;
    bool stac = false;        // stac:* columns from each GeoTIFF's georeferencing
    std::string level_codec;  // --level-codec: empty = the default (LZ4_RAW)
    std::string scheduler;    // with workers: the create runs on Dask (create_on_dask.hpp)
    int workers = 0;
    unsigned threads = 0;  // --threads: for --stac and (unless --stats-threads) --stats
    // TACO-level extensions (include/taco/extensions.hpp): --sensor, --split-strategy and
    // --extension NAME=FILE.json (tacotoolbox's arguments of OpticalData, Labels, ...).
    std::string sensor, split_strategy;
    std::vector<std::string> extensions;
    StatsArgs stats;  // --stats* (create_stats.hpp)
};

// The arguments tacocore._dask_cli takes: taco create's own, as given.
std::vector<std::string> dask_arguments(const CreateArgs& a) {
    std::vector<std::string> out = {"--from", a.from, a.output, "--key", a.key};
    auto add = [&](const char* flag, const std::string& value) {
        if (!value.empty()) out.insert(out.end(), {flag, value});
    };
    add("--metadata", a.metadata);
    add("--collection", a.collection_file);
    add("--id", a.id);
    add("--description", a.description);
    add("--title", a.title);
    add("--dataset-version", a.dataset_version);
    add("--taco-version", a.taco_version);
    add("--split-size", a.split_size);
    for (const auto& v : a.group_by) add("--group-by", v);
    add("--scheduler", a.scheduler);
    for (const auto& v : a.licenses) add("--license", v);
    for (const auto& v : a.providers) add("--provider", v);
    for (const auto& v : a.tasks) add("--task", v);
    for (const auto& v : a.keywords) add("--keyword", v);
    if (a.pad_to) add("--pad-to", std::to_string(a.pad_to));
    if (a.workers) add("--workers", std::to_string(a.workers));
    if (a.json) out.push_back("--json");
    if (a.quiet) out.push_back("--quiet");
    return out;
}

std::string read_text(const std::string& path) {
    io::File f = io::File::open_read(path);  // refuses a FIFO or device instead of blocking
    std::string text(static_cast<size_t>(f.size()), '\0');
    if (!text.empty()) f.read_at(0, text.data(), text.size());
    return text;
}

// The TACO-level extensions of the command line, on top of --collection's keys (a key given both
// ways takes the option's value, in the file's place): --extension files in order, then
// --sensor and --split-strategy.
void add_extension_options(const CreateArgs& a, CollectionInfo& info) {
    for (const std::string& spec : a.extensions) {
        const auto eq = spec.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size()) {
            throw std::invalid_argument(
                "--extension '" + spec +
                "': expected NAME=FILE.json, NAME one of OpticalData, Labels, Publications, "
                "SplitStrategy");
        }
        const std::string name = spec.substr(0, eq), file = spec.substr(eq + 1);
        ext::add_collection_fields(info.extensions,
                                   ext::collection_fields_from_json(name, read_text(file), file));
    }
    if (!a.sensor.empty())
        ext::add_collection_fields(info.extensions,
                                   ext::collection_fields(ext::optical_data(a.sensor)));
    if (!a.split_strategy.empty())
        ext::add_collection_fields(info.extensions,
                                   ext::collection_fields(ext::SplitStrategy{a.split_strategy}));
}

// Collection fields: --collection FILE first, then the flags on top; a missing id is derived
// from the output name so that `taco create --from DIR out.tacozip` works as it is.
CollectionInfo collection_from_args(const CreateArgs& a) {
    CollectionInfo info;
    if (!a.collection_file.empty()) {
        const std::string text = read_text(a.collection_file);
        auto doc = format::parse_user_json_document(text, a.collection_file);
        info = format::collection_info_from_json(doc, a.collection_file, false);
    }
    if (!a.id.empty()) info.id = a.id;
    if (info.id.empty()) {
        // "out/" names the FOLDER dataset "out": trailing slashes are not part of the name.
        std::string name = a.output;
        while (name.size() > 1 && name.back() == '/') name.pop_back();
        std::string stem = std::filesystem::path(name).stem().string();
        bool has_alnum = false;
        for (char& c : stem) {
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            has_alnum = has_alnum || std::isalnum(static_cast<unsigned char>(c));
            if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-') c = '_';
        }
        if (!has_alnum) {
            throw std::invalid_argument(
                "output path '" + a.output +
                "': no collection id can be derived from this name; give --id or "
                "an output path with a name, such as dataset.tacozip");
        }
        info.id = stem;
    }
    if (!a.description.empty()) info.description = a.description;
    if (!a.title.empty()) info.title = a.title;
    if (!a.dataset_version.empty()) info.dataset_version = a.dataset_version;
    if (info.dataset_version.empty()) info.dataset_version = "1.0.0";
    if (!a.taco_version.empty()) info.taco_version = a.taco_version;
    if (!a.licenses.empty()) info.licenses = a.licenses;
    if (!a.tasks.empty()) info.tasks = a.tasks;
    if (!a.keywords.empty()) info.keywords = a.keywords;
    for (const auto& p : a.providers) {
        Contact c;
        c.name = p;
        info.providers.push_back(c);
    }
    add_extension_options(a, info);
    return info;
}

// After a successful create the DuckDB session is left open here: the process ends right after,
// and closing DuckDB (its whole catalog) would only delay that by ~6 ms. Kept reachable, so leak
// checkers do not report it. Errors close it as usual.
format::PendingSession* g_session_left_open = nullptr;

int run_create(const CreateArgs& a) {
    if (!a.scheduler.empty() || a.workers) {
        if (!a.scheduler.empty() && a.workers) {
            return report_error("give --scheduler or --workers, not both", "UsageError",
                                kExitUsage);
        }
        if (a.stats.wanted()) {
            return report_error("--stats is not taken by --scheduler/--workers", "UsageError",
                                kExitUsage);
        }
        if (a.follow_symlinks) {
            return report_error(
                "--follow-symlinks is not taken by --scheduler/--workers (the workers list the "
                "input directory themselves and stay inside it)",
                "UsageError", kExitUsage);
        }
        if (!a.sensor.empty() || !a.split_strategy.empty() || !a.extensions.empty()) {
            return report_error(
                "--sensor/--split-strategy/--extension are not taken by --scheduler/--workers yet; "
                "put the keys in --collection FILE",
                "UsageError", kExitUsage);
        }
        if (!a.level_codec.empty()) {
            return report_error(
                "--level-codec is not taken by --scheduler/--workers yet (the parts are written "
                "LZ4_RAW, the default)",
                "UsageError", kExitUsage);
        }
        if (a.stac) {
            return report_error(
                "--stac is not taken by --scheduler/--workers yet (the workers do not read "
                "rasters); run without them",
                "UsageError", kExitUsage);
        }
        if (a.format == "folder" || a.overwrite) {
            return report_error(std::string("--scheduler/--workers write ZIP parts and never "
                                            "replace an existing output (") +
                                    (a.overwrite ? "--overwrite" : "--format folder") + " given)",
                                "UsageError", kExitUsage);
        }
        return run_create_on_dask(dask_arguments(a));
    }
    auto start = std::chrono::steady_clock::now();
    if (a.output == "-") {
        throw std::invalid_argument(
            "output '-': taco create writes a dataset to a path (a .tacozip file or a "
            "FOLDER directory), not to standard output");
    }
    // One DuckDB for the metadata table and the tables written.
    auto db = std::make_unique<format::PendingSession>();
    toolbox::DirectoryOptions dopts;
    dopts.follow_symlinks_outside = a.follow_symlinks;
    if (!a.metadata.empty()) dopts.metadata_table = a.metadata;
    dopts.key_column = a.key;
    if (a.pad_to) dopts.pad_to = a.pad_to;
    if (a.stac) {
        dopts.derive_fields = ext::stac_from_raster;
        dopts.derive_threads = a.threads;
    }
    Tortilla tree = toolbox::tortilla_from_directory(a.from, dopts, *db);
    std::vector<std::string> stats_skipped;
    if (a.stats.wanted()) {
        StatsArgs stats = a.stats;
        if (stats.threads == 0) stats.threads = a.threads;
        tree = apply_stats(tree, stats, !a.quiet && !a.json, stats_skipped);
    }
    for (const std::string& s : stats_skipped)
        std::cerr << "warning: geotiff:stats skipped " << s << "\n";
    Taco taco(std::move(tree), collection_from_args(a));

    CreateOptions opts;
    opts.overwrite = a.overwrite;
    if (!a.level_codec.empty()) opts.level_codec = parse_parquet_codec(a.level_codec);
    opts.format = a.format == "zip"      ? ContainerFormat::Zip
                  : a.format == "folder" ? ContainerFormat::Folder
                                         : ContainerFormat::Auto;
    ProgressBar bar(!a.quiet && !a.json);
    // Only with a bar to draw: the text would otherwise be formatted for every file.
    if (bar.enabled()) {
        opts.progress = [&](const CreateProgress& p) {
            bar.update(p.bytes_done, p.bytes_total,
                       std::to_string(p.files_done) + "/" + std::to_string(p.files_total) +
                           " files, " + human_bytes(p.bytes_done));
        };
    }
    if (!a.split_size.empty()) opts.split_size = parse_size(a.split_size);
    opts.group_by = a.group_by;
    // Multi-part output (src/collection/) writes its parts on threads of its own.
    CreateResult r = opts.split_size || !opts.group_by.empty()
                         ? create(taco, a.output, opts)
                         : format::create(taco, a.output, opts, *db);
    g_session_left_open = db.release();
    bar.finish();
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    if (a.json) {
        nlohmann::ordered_json j;
        j["path"] = r.path.string();
        j["format"] = to_string(r.format);
        j["id"] = taco.info().id;
        j["bytes"] = r.bytes;
        j["files"] = r.files;
        j["levels"] = r.level_rows;
        j["seconds"] = seconds;
        if (a.stats.wanted()) j["stats_skipped"] = stats_skipped;
        if (!r.parts.empty()) {
            j["parts"] = nlohmann::ordered_json::array();
            for (const auto& p : r.parts) j["parts"].push_back(p.string());
            if (!r.index.empty()) j["index"] = r.index.string();
        }
        print_json(std::cout, j);
    } else if (!a.quiet) {
        // Several parts: the totals are the collection's, so the line names it, not part 1.
        if (r.parts.size() > 1)
            std::cout << "created " << r.parts.size() << " parts of " << a.output;
        else
            std::cout << "created " << r.path.string();
        std::cout << " (" << to_string(r.format) << ", " << human_bytes(r.bytes) << ", " << r.files
                  << " files, " << r.level_rows.size() << " level"
                  << (r.level_rows.size() == 1 ? "" : "s") << ": ";
        for (size_t i = 0; i < r.level_rows.size(); ++i)
            std::cout << (i ? ", " : "") << r.level_rows[i];
        std::cout << " rows) in " << seconds << " s\n";
        if (r.parts.size() > 1) {
            std::cout << "  " << r.parts.size() << " parts, first " << r.parts.front().string()
                      << ", last " << r.parts.back().string() << "; index " << r.index.string()
                      << "\n";
        }
    }
    return kExitOk;
}

}  // namespace

Command make_create_command() {
    auto args = std::make_shared<CreateArgs>();
    Command c;
    c.add = [args](CLI::App& app) {
        CLI::App* sub = app.add_subcommand(
            "create", "Create a TACO dataset (ZIP or FOLDER) from a directory tree");
        sub->add_option(
               "--from", args->from,
               "Input directory: files become FILE samples, sub-directories FOLDER samples")
            ->required();
        sub->add_option("output", args->output,
                        "Output: *.tacozip / *.zip writes a ZIP, anything else a FOLDER")
            ->required();
        sub->add_option("--metadata", args->metadata,
                        "Table (CSV, Parquet, JSON) with one row per sample; its columns become "
                        "metadata fields");
        sub->add_option("--key", args->key,
                        "Column of --metadata holding the sample path relative to --from")
            ->capture_default_str();
        sub->add_option("--collection", args->collection_file,
                        "COLLECTION fields from a JSON file (flags override it)");
        sub->add_option("--id", args->id,
                        "Dataset id (lowercase letters, digits, _ and -); default: from OUTPUT");
        sub->add_option("--description", args->description, "Dataset description");
        sub->add_option("--title", args->title, "Short title (at most 250 characters)");
        sub->add_option("--dataset-version", args->dataset_version,
                        "Version of the dataset (default 1.0.0)");
        sub->add_option("--taco-version", args->taco_version,
                        "taco_version to record (default 2.0.0)");
        sub->add_option("--license", args->licenses, "License (SPDX id); repeat for several");
        sub->add_option("--provider", args->providers, "Provider name; repeat for several");
        sub->add_option("--task", args->tasks,
                        "ML task (e.g. classification, semantic-segmentation); repeatable");
        sub->add_option("--keyword", args->keywords, "Keyword; repeatable");
        sub->add_option("--pad-to", args->pad_to,
                        "Pad every tortilla to a multiple of N samples with __TACOPAD__ samples");
        sub->add_option("--format", args->format, "Container: auto, zip or folder")
            ->check(CLI::IsMember({"auto", "zip", "folder"}))
            ->capture_default_str();
        sub->add_option("--split-size", args->split_size,
                        "Write ZIP parts <stem>_part0001.tacozip.. of at most SIZE sample bytes "
                        "(e.g. 4GB, 512MiB) and their .tacocat/ index");
        sub->add_option("--group-by", args->group_by,
                        "Write one ZIP part <stem>_<value>.tacozip per value of this level-0 "
                        "column, and their .tacocat/ index; repeat it to group by several "
                        "columns (values joined by '_', as tacotoolbox)")
            ->allow_extra_args(false);
        add_level_codec_option(sub, args->level_codec);
        sub->add_option("--scheduler", args->scheduler,
                        "Build the parts on a Dask cluster (tcp://HOST:PORT), through the tacocore "
                        "Python package ($TACO_PYTHON, else python3)");
        sub->add_option("--workers", args->workers,
                        "Build the parts on a local Dask cluster of N worker processes")
            ->check(CLI::PositiveNumber);
        sub->add_flag("--overwrite", args->overwrite,
                      "Replace OUTPUT if it exists (only once the new one is complete)");
        sub->add_flag(
            "--stac", args->stac,
            "Add the stac:* columns (crs, tensor_shape, geotransform, centroid) from each "
            "raster's own georeferencing (GDAL); other files get nulls. Times: "
            "stac:time_start/time_end/time_middle columns of --metadata");
        sub->add_option("--sensor", args->sensor,
                        "OpticalData extension from tacotoolbox's band tables: a sensor "
                        "(sentinel2msi, landsat8oli, ...) and optionally its bands, e.g. "
                        "'sentinel2msi[B02,B03,B04]'");
        sub->add_option("--split-strategy", args->split_strategy,
                        "SplitStrategy extension: random, stratified, manual, other, none or "
                        "unknown");
        sub->add_option("--extension", args->extensions,
                        "A TACO-level extension from a JSON file of tacotoolbox's arguments: "
                        "NAME=FILE.json, NAME one of OpticalData ({sensor, bands}), Labels "
                        "({label_classes, label_description}), Publications ({publications}), "
                        "SplitStrategy ({strategy}); repeatable");
        sub->add_option("--threads", args->threads,
                        "Threads that open rasters for --stac and --stats (0 = one per core; "
                        "--stats-threads overrides it for --stats). The output is the same "
                        "bytes for any number");
        sub->add_flag("--json", args->json, "Print a JSON summary instead of text");
        sub->add_flag("-q,--quiet", args->quiet, "Print nothing on success");
        sub->add_flag("--follow-symlinks", args->follow_symlinks,
                      "Also pack what symbolic links in --from point to outside that directory "
                      "(links inside it are always followed; loops are refused)");
        add_stats_options(*sub, args->stats);
        return sub;
    };
    c.run = [args] { return run_create(*args); };
    return c;
}

}  // namespace taco::cli
