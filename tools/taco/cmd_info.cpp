// `taco info PATH [--json]`: what a dataset is: id, title, container, versions, levels with row
// counts and columns, extent and PIT schema.
#include <iostream>

#include "commands.hpp"
#include "output.hpp"
#include "taco/dataset.hpp"
#include "taco/legacy.hpp"

namespace taco::cli {
namespace {

struct InfoArgs {
    std::string path;
    bool json = false;
};

struct LevelSummary {
    size_t level;
    uint64_t rows;
    uint64_t padding;
    std::vector<ColumnType> columns;
};

std::vector<LevelSummary> summarize_levels(const Dataset& ds) {
    std::vector<LevelSummary> out;
    for (size_t i = 0; i < ds.level_count(); ++i) {
        const std::string table = "level" + std::to_string(i) + "_table";
        const Dataset view = ds.level(i);
        const uint64_t rows = view.count();
        const uint64_t all = ds.sql("SELECT * FROM " + table).count();
        out.push_back({i, rows, all - rows, view.columns()});
    }
    return out;
}

Json extent_json(const Dataset& ds) {
    if (!ds.extent()) return nullptr;
    const Extent& e = *ds.extent();
    Json j = Json::object();
    j["spatial"] = Json::array({e.spatial[0], e.spatial[1], e.spatial[2], e.spatial[3]});
    j["temporal"] = e.temporal ? Json::array({(*e.temporal)[0], (*e.temporal)[1]}) : Json(nullptr);
    return j;
}

// A collection index (.tacocat/ or __TACOCAT__) is loaded under the index's own path.
bool is_collection(const Dataset& ds) {
    const std::string leaf = ds.path().filename().string();
    return leaf == ".tacocat" || leaf == "__TACOCAT__";
}

Json optional_json(const std::optional<std::string>& s) {
    return s ? Json(*s) : Json(nullptr);
}

void print_text(const Dataset& ds, const std::vector<LevelSummary>& levels) {
    auto line = [](const char* key, const std::string& value) {
        std::cout << key << std::string(17 - std::string(key).size(), ' ') << value << "\n";
    };
    line("id:", ds.id());
    if (ds.title()) line("title:", *ds.title());
    line("format:", std::string(to_string(ds.format())) + "  " + ds.path().string());
    // A v1 file (src/legacy/); a split one loads as the concatenation of its parts.
    const auto sources = ds.sources();
    if (!sources.empty() && is_legacy_v1_file(sources.front())) {
        line("legacy:",
             sources.size() == 1
                 ? std::string("v1 file, read-only (`taco migrate` rewrites it as TACO 2.0)")
                 : "v1 file in " + std::to_string(sources.size()) + " parts (" +
                       sources.front().filename().string() + " .. " +
                       sources.back().filename().string() +
                       "), read-only (`taco migrate` rewrites it as TACO 2.0)");
    }
    if (is_collection(ds)) {
        const auto parts = ds.sources();
        line("parts:", std::to_string(parts.size()) + " ZIP parts, " +
                           (parts.empty() ? std::string() : parts.front().filename().string()) +
                           (parts.size() > 1 ? " .. " + parts.back().filename().string() : ""));
        const auto missing = ds.missing_parts();
        if (!missing.empty()) {
            line("missing:", std::to_string(missing.size()) + " part(s) not found, e.g. " +
                                 missing.front() + " (their samples cannot be read)");
        }
    }
    line("taco_version:", ds.taco_version());
    line("dataset_version:", ds.version());
    if (!ds.description().empty()) line("description:", ds.description());
    if (const auto& e = ds.extent()) {
        std::string spatial = "[";
        for (size_t i = 0; i < 4; ++i)
            spatial += (i ? ", " : "") + value_to_text(Value(e->spatial[i]));
        line("extent:",
             spatial + "]" +
                 (e->temporal ? "  " + (*e->temporal)[0] + " .. " + (*e->temporal)[1] : ""));
    }
    std::cout << "levels:\n";
    for (const auto& l : levels) {
        std::cout << "  level " << l.level << ": " << l.rows << " rows";
        if (l.padding) std::cout << " (+" << l.padding << " padding)";
        std::cout << "\n    ";
        for (size_t c = 0; c < l.columns.size(); ++c) {
            std::cout << (c ? ", " : "") << l.columns[c].name << " "
                      << l.columns[c].type.arrow_name();
        }
        std::cout << "\n";
    }
    const PitSchema& pit = ds.pit_schema();
    std::cout << "pit_schema:\n  root: " << pit.root_n << " " << pit.root_type << "\n";
    for (size_t d = 0; d < pit.hierarchy.size(); ++d) {
        for (const auto& p : pit.hierarchy[d]) {
            std::cout << "  level " << d + 1 << ": n=" << p.n << " [";
            for (size_t i = 0; i < p.ids.size(); ++i)
                std::cout << (i ? ", " : "") << p.ids[i] << " " << p.types[i];
            std::cout << "]\n";
        }
    }
}

int run_info(const InfoArgs& a) {
    const Dataset ds = load(a.path);
    const std::vector<LevelSummary> levels = summarize_levels(ds);
    if (!a.json) {
        print_text(ds, levels);
        return kExitOk;
    }
    const Json collection = Json::parse(ds.collection_json(), nullptr, false);
    Json j = Json::object();
    j["id"] = ds.id();
    j["title"] = optional_json(ds.title());
    j["description"] = ds.description();
    j["format"] = to_string(ds.format());
    j["path"] = ds.path().string();
    if (is_collection(ds)) {
        j["parts"] = Json::array();
        for (const auto& p : ds.sources()) j["parts"].push_back(p.string());
        j["missing_parts"] = ds.missing_parts();
    }
    j["taco_version"] = ds.taco_version();
    j["dataset_version"] = ds.version();
    j["licenses"] = ds.licenses();
    j["tasks"] = ds.tasks();
    j["keywords"] = ds.keywords() ? Json(*ds.keywords()) : Json(nullptr);
    j["extent"] = extent_json(ds);
    Json lv = Json::array();
    for (const auto& l : levels) {
        Json e = Json::object();
        e["level"] = l.level;
        e["rows"] = l.rows;
        e["padding_rows"] = l.padding;
        Json names = Json::array(), types = Json::array();
        for (const auto& c : l.columns) {
            names.push_back(c.name);
            types.push_back(c.type.arrow_name());
        }
        e["columns"] = std::move(names);
        e["column_types"] = std::move(types);
        lv.push_back(std::move(e));
    }
    j["levels"] = std::move(lv);
    // As stored: the typed PitSchema drops nothing, but the document is what users compare.
    j["pit_schema"] = collection.is_object() && collection.contains("taco:pit_schema")
                          ? collection["taco:pit_schema"]
                          : Json(nullptr);
    print_json(std::cout, j);
    return kExitOk;
}

}  // namespace

Command make_info_command() {
    auto args = std::make_shared<InfoArgs>();
    Command c;
    c.add = [args](CLI::App& app) {
        CLI::App* sub = app.add_subcommand(
            "info", "Describe a dataset: id, format, levels, extent, PIT schema");
        sub->add_option("path", args->path,
                        "Dataset: a .tacozip/.zip file or a FOLDER dataset directory")
            ->required();
        sub->add_flag("--json", args->json, "Print JSON instead of text");
        return sub;
    };
    c.run = [args] { return run_read_command([&] { return run_info(*args); }); };
    return c;
}

}  // namespace taco::cli
