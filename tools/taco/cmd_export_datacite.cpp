// `taco export-datacite DATASET OUT.json`: DataCite 4.5 JSON from the collection fields
// (include/taco/catalog.hpp).
#include <iostream>

#include "commands.hpp"
#include "taco/catalog.hpp"

namespace taco::cli {
namespace {

struct DataCiteArgs {
    std::string dataset, output;
    DataCiteOptions options;
    bool quiet = false;
};

int run_datacite(const DataCiteArgs& a) {
    const CatalogResult r = export_datacite(load(a.dataset), a.output, a.options);
    for (const std::string& w : r.warnings) std::cerr << "taco: warning: " << w << "\n";
    if (!a.quiet) std::cout << "wrote " << r.path.string() << "\n";
    return kExitOk;
}

}  // namespace

Command make_export_datacite_command() {
    auto args = std::make_shared<DataCiteArgs>();
    Command c;
    c.add = [args](CLI::App& app) {
        CLI::App* sub = app.add_subcommand(
            "export-datacite", "Write DataCite 4.5 JSON (for a DOI) from the collection fields");
        sub->add_option("dataset", args->dataset, "Dataset (ZIP, FOLDER, collection or URL)")
            ->required();
        sub->add_option("output", args->output, "New JSON file")->required();
        sub->add_option("--publisher", args->options.publisher,
                        "Publisher name (default: the provider with role host, else the first)");
        sub->add_option("--year", args->options.publication_year,
                        "Publication year (default: this year)");
        sub->add_option("--doi", args->options.doi, "The DOI, when one is reserved");
        sub->add_flag("--overwrite", args->options.overwrite, "Replace an existing OUTPUT");
        sub->add_flag("-q,--quiet", args->quiet, "Print nothing on success");
        return sub;
    };
    c.run = [args] { return run_datacite(*args); };
    return c;
}

}  // namespace taco::cli
