// `taco cog IN OUT`: a raster as a TACO-optimized GeoTIFF (spec taco-0.2.0), through GDAL's COG
// driver; `taco cog --check FILE...` says whether files already are.
#include <iostream>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "output.hpp"
#include "taco/errors.hpp"
#include "taco/tog.hpp"

namespace taco::cli {
namespace {

struct CogArgs {
    std::vector<std::string> paths;
    int block_size = 512, level = 13;
    bool overwrite = false, check = false, json = false;
};

int run_cog(const CogArgs& a) {
    if (a.check) {
        bool all = true;
        nlohmann::ordered_json out = nlohmann::ordered_json::array();
        for (const std::string& p : a.paths) {
            const TogCheck c = check_tog(p);
            all = all && c.is_tog;
            if (a.json) {
                out.push_back({{"path", p}, {"tog", c.is_tog}, {"problems", c.problems}});
                continue;
            }
            std::cout << p << ": " << (c.is_tog ? "TACO-optimized GeoTIFF" : "not a TOG");
            for (size_t i = 0; i < c.problems.size(); ++i)
                std::cout << (i ? "; " : " (") << c.problems[i];
            std::cout << (c.problems.empty() ? "" : ")") << "\n";
        }
        if (a.json) print_json(std::cout, out);
        return all ? kExitOk : kExitInvalid;
    }
    if (a.paths.size() != 2) throw IoError("taco cog takes IN OUT (or --check FILE...)");
    TogOptions o;
    o.block_size = a.block_size;
    o.zstd_level = a.level;
    o.overwrite = a.overwrite;
    write_tog(a.paths[0], a.paths[1], o);
    return kExitOk;
}

}  // namespace

Command make_cog_command() {
    auto args = std::make_shared<CogArgs>();
    Command c;
    c.add = [args](CLI::App& app) {
        CLI::App* sub = app.add_subcommand(
            "cog",
            "Write a raster as a TACO-optimized GeoTIFF (COG driver, 512 tiles, ZSTD 13, "
            "BigTIFF, no overviews, IMAGE_INFO statistics)");
        sub->add_option("paths", args->paths, "IN OUT, or the files to check with --check")
            ->required();
        sub->add_option("--block-size", args->block_size, "Tile size, a multiple of 16");
        sub->add_option("--level", args->level, "ZSTD level");
        sub->add_flag("--overwrite", args->overwrite, "Replace an existing OUT");
        sub->add_flag("--check", args->check,
                      "Only report whether each file is a TOG (exit 1 when one is not)");
        sub->add_flag("--json", args->json, "With --check: print JSON");
        return sub;
    };
    c.run = [args] { return run_cog(*args); };
    return c;
}

}  // namespace taco::cli
