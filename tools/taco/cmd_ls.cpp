// `taco ls PATH [ROWPATH] [--json]`: the samples at level 0, or inside the FOLDER at ROWPATH
// (a FILE ROWPATH lists that one sample): id, type, size in bytes (FILEs) and GDAL path.
#include <iostream>

#include "commands.hpp"
#include "output.hpp"
#include "paths/path_display.hpp"
#include "rowpath.hpp"
#include "taco/dataset.hpp"

namespace taco::cli {
namespace {

struct LsArgs {
    std::string path, rowpath;
    bool json = false;
};

struct Entry {
    std::string id, type, vsi;
    std::optional<uint64_t> size;
};

Entry entry_of(const DataFrame& df, size_t row, size_t id, size_t type, size_t vsi) {
    Entry e;
    e.id = df.is_null(row, id) ? "" : std::string(df.get_string(row, id));
    e.type = df.is_null(row, type) ? "" : std::string(df.get_string(row, type));
    e.vsi = df.is_null(row, vsi) ? "" : std::string(df.get_string(row, vsi));
    if (e.type == "FILE") e.size = df.byte_size(static_cast<int64_t>(row));
    return e;
}

int run_ls(const LsArgs& a) {
    const Dataset ds = load(a.path);
    DataFrame df;
    std::optional<size_t> only;  // a FILE ROWPATH: list just that row
    if (a.rowpath.empty()) {
        df = ds.sql("SELECT id, type, \"internal:gdal_vsi\" FROM data").data();
    } else {
        RowLocation at = follow_rowpath(ds, a.rowpath);
        ReadResult r = at.frame.read(static_cast<int64_t>(at.row));
        if (auto* children = std::get_if<DataFrame>(&r)) {
            df = std::move(*children);
        } else {
            df = at.frame;
            only = at.row;
        }
    }
    const size_t id = *df.column_index("id"), type = *df.column_index("type"),
                 vsi = *df.column_index("internal:gdal_vsi");
    std::vector<Entry> entries;
    if (only) {
        entries.push_back(entry_of(df, *only, id, type, vsi));
    } else {
        for (size_t r = 0; r < df.rows(); ++r) entries.push_back(entry_of(df, r, id, type, vsi));
    }
    if (a.json) {
        Json arr = Json::array();
        for (const auto& e : entries) {
            Json j = Json::object();
            j["id"] = e.id;
            j["type"] = e.type;
            j["size"] = e.size ? Json(*e.size) : Json(nullptr);
            // A dataset whose path is not UTF-8 is read through /proc/self/fd/N of this process:
            // the listing names the real path instead, escaped (USER-GUIDE §8).
            j["path"] = paths::display_text(e.vsi);
            arr.push_back(std::move(j));
        }
        print_json(std::cout, arr);
        return kExitOk;
    }
    size_t size_width = 4;
    for (const auto& e : entries)
        size_width = std::max(size_width, e.size ? std::to_string(*e.size).size() : 1);
    for (const auto& e : entries) {
        const std::string size = e.size ? std::to_string(*e.size) : "-";
        std::cout << e.type << std::string(e.type.size() < 7 ? 7 - e.type.size() : 1, ' ')
                  << std::string(size_width - size.size(), ' ') << size << "  " << e.id
                  << (e.type == "FOLDER" ? "/" : "") << "\n";
    }
    return kExitOk;
}

}  // namespace

Command make_ls_command() {
    auto args = std::make_shared<LsArgs>();
    Command c;
    c.add = [args](CLI::App& app) {
        CLI::App* sub =
            app.add_subcommand("ls", "List the samples at level 0 or inside a FOLDER sample");
        sub->add_option("path", args->path,
                        "Dataset: a .tacozip/.zip file or a FOLDER dataset directory")
            ->required();
        sub->add_option("rowpath", args->rowpath,
                        "Sample ids joined by '/', e.g. tile_00/sensor_A");
        sub->add_flag("--json", args->json, "Print a JSON list of {id, type, size, path}");
        return sub;
    };
    c.run = [args] { return run_read_command([&] { return run_ls(*args); }); };
    return c;
}

}  // namespace taco::cli
