// `taco docs DATASET --format md|html [--output FILE]`: a dataset card (stdout by default).
#include <iostream>

#include "catalog/json_output.hpp"
#include "commands.hpp"
#include "taco/card.hpp"
#include "taco/errors.hpp"

namespace taco::cli {
namespace {

struct DocsArgs {
    std::string dataset, format = "md", output, example;
    bool overwrite = false;
};

int run_docs(const DocsArgs& a) {
    CardOptions o;
    o.dataset_example_path = a.example;
    const Dataset ds = load(a.dataset);
    const std::string card = dataset_card(ds, parse_card_format(a.format), o);
    if (a.output.empty()) {
        std::cout << card;
        return kExitOk;
    }
    catalog::write_document(a.output, card, a.overwrite, ds.sources(), "docs --overwrite");
    return kExitOk;
}

}  // namespace

Command make_docs_command() {
    auto args = std::make_shared<DocsArgs>();
    Command c;
    c.add = [args](CLI::App& app) {
        CLI::App* sub = app.add_subcommand(
            "docs", "Write a dataset card (Markdown or a self-contained HTML page)");
        sub->add_option("dataset", args->dataset, "Dataset: ZIP, FOLDER, collection or URL")
            ->required();
        sub->add_option("--format", args->format, "md or html")
            ->check(CLI::IsMember({"md", "markdown", "html"}));
        sub->add_option("--output", args->output, "File to write (default: standard output)");
        sub->add_option("--example-path", args->example,
                        "Path the code snippets load (default: the dataset's path)");
        sub->add_flag("--overwrite", args->overwrite, "Replace an existing --output file");
        return sub;
    };
    c.run = [args] { return run_docs(*args); };
    return c;
}

}  // namespace taco::cli
