// `taco export-croissant DATASET OUT.json`: Croissant 1.0 JSON-LD describing the dataset's files
// and level tables (include/taco/catalog.hpp).
#include <iostream>

#include "commands.hpp"
#include "taco/catalog.hpp"
#include "taco/errors.hpp"

namespace taco::cli {
namespace {

struct CroissantArgs {
    std::string dataset, output, checksum = "auto", base_url;
    bool overwrite = false, quiet = false;
};

int run_croissant(const CroissantArgs& a) {
    CroissantOptions o;
    if (a.checksum == "yes")
        o.checksum = CroissantOptions::Checksum::Yes;
    else if (a.checksum == "no")
        o.checksum = CroissantOptions::Checksum::No;
    o.base_url = a.base_url;
    o.overwrite = a.overwrite;
    const CatalogResult r = export_croissant(load(a.dataset), a.output, o);
    for (const std::string& w : r.warnings) std::cerr << "taco: warning: " << w << "\n";
    if (!a.quiet) std::cout << "wrote " << r.path.string() << " (" << r.items << " record sets)\n";
    return kExitOk;
}

}  // namespace

Command make_export_croissant_command() {
    auto args = std::make_shared<CroissantArgs>();
    Command c;
    c.add = [args](CLI::App& app) {
        CLI::App* sub = app.add_subcommand(
            "export-croissant",
            "Write Croissant 1.0 JSON-LD: the dataset's files and one RecordSet per level");
        sub->add_option("dataset", args->dataset, "Dataset (ZIP, FOLDER, collection or URL)")
            ->required();
        sub->add_option("output", args->output, "New JSON-LD file")->required();
        sub->add_option("--checksum", args->checksum,
                        "sha256 of the distributed files: auto (local datasets only), yes, no")
            ->check(CLI::IsMember({"auto", "yes", "no"}));
        sub->add_option("--base-url", args->base_url,
                        "Where the dataset will be published (contentUrl = URL/file name); "
                        "default: paths relative to OUTPUT, or the dataset's URL");
        sub->add_flag("--overwrite", args->overwrite, "Replace an existing OUTPUT");
        sub->add_flag("-q,--quiet", args->quiet, "Print nothing on success");
        return sub;
    };
    c.run = [args] { return run_croissant(*args); };
    return c;
}

}  // namespace taco::cli
