// `taco export-stac DATASET OUT_DIR [--where SQL]`: a static STAC catalog of the dataset.
#include <iostream>

#include "commands.hpp"
#include "taco/catalog.hpp"

namespace taco::cli {
namespace {

struct StacArgs {
    std::string dataset, output, where;
    bool overwrite = false, quiet = false;
};

int run_stac(const StacArgs& a) {
    Dataset ds = load(a.dataset);
    if (!a.where.empty()) ds = ds.sql("SELECT * FROM data WHERE " + a.where);
    const CatalogResult r = export_stac(ds, a.output, a.overwrite);
    for (const std::string& w : r.warnings) std::cerr << "taco: warning: " << w << "\n";
    if (!a.quiet) std::cout << "wrote " << r.path.string() << " and " << r.items << " items\n";
    return kExitOk;
}

}  // namespace

Command make_export_stac_command() {
    auto args = std::make_shared<StacArgs>();
    Command c;
    c.add = [args](CLI::App& app) {
        CLI::App* sub = app.add_subcommand(
            "export-stac", "Write a STAC Collection and one Item per level-0 sample");
        sub->add_option("dataset", args->dataset, "Dataset (ZIP, FOLDER, collection or URL)")
            ->required();
        sub->add_option("output", args->output, "New directory for collection.json and items/")
            ->required();
        sub->add_option("--where", args->where, "SQL condition on level 0");
        sub->add_flag("--overwrite", args->overwrite, "Replace an earlier STAC export");
        sub->add_flag("-q,--quiet", args->quiet, "Print nothing on success");
        return sub;
    };
    c.run = [args] { return run_stac(*args); };
    return c;
}

}  // namespace taco::cli
