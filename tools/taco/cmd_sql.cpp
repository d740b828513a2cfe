// `taco sql PATH QUERY [--json|--csv]`: runs a query with `data` = level 0 (padding hidden, with
// internal:gdal_vsi); `level0`..`levelN` are there too. Prints exactly the selected columns.
#include <iostream>

#include "commands.hpp"
#include "io/cancel.hpp"
#include "io/deadline.hpp"
#include "output.hpp"
#include "query/sql_compose.hpp"
#include "taco/dataset.hpp"
#include "taco/errors.hpp"

namespace taco::cli {
namespace {

struct SqlArgs {
    std::string path, query;
    bool json = false, csv = false;
    double timeout = 0;
    bool sandbox = false;
    std::string memory_limit;
};

// A plan is drawn with boxes over many lines: printed as it is (as DuckDB's own shell does),
// where the table view would flatten and shorten it.
void print_plan(std::ostream& out, const DataFrame& df) {
    const size_t value = df.columns() - 1;  // explain_value
    for (size_t r = 0; r < df.rows(); ++r) {
        if (df.value(r, value).is_null()) continue;
        std::string text = value_to_text(df.value(r, value));
        if (!text.empty() && text.back() != '\n') text += '\n';
        out << text;
    }
}

int run_sql(const SqlArgs& a) {
    // The query runs on this process's only DuckDB sessions: the cancel hooks interrupt it.
    io::Deadline deadline(a.timeout, [] { io::run_cancel_hooks(); });
    DataFrame df;
    try {
        LoadOptions options;
        options.sandbox = a.sandbox;
        options.memory_limit = a.memory_limit;
        df = load(a.path, options).sql(a.query).data_raw();
    } catch (const Error&) {
        if (!deadline.expired()) throw;
        std::cerr << "taco: error: the query did not finish within --timeout " << a.timeout
                  << " s and was interrupted\n";
        return kExitLimit;
    }
    if (a.json) {
        print_json(std::cout, frame_to_json(df));
    } else if (a.csv) {
        print_csv(std::cout, df);
    } else if (query::is_explain(a.query)) {
        print_plan(std::cout, df);
    } else {
        print_table(std::cout, df);
    }
    return kExitOk;
}

}  // namespace

Command make_sql_command() {
    auto args = std::make_shared<SqlArgs>();
    Command c;
    c.add = [args](CLI::App& app) {
        CLI::App* sub = app.add_subcommand("sql",
                                           "Query the metadata with SQL (DuckDB): `data` is level "
                                           "0, `level1`..`levelN` the deeper levels");
        sub->add_option("path", args->path,
                        "Dataset: a .tacozip/.zip file or a FOLDER dataset directory")
            ->required();
        sub->add_option("query", args->query,
                        "One SQL statement, e.g. \"SELECT id FROM data WHERE cloud < 10\"")
            ->required();
        auto* json = sub->add_flag("--json", args->json, "Print a JSON list of row objects");
        sub->add_flag("--csv", args->csv, "Print CSV")->excludes(json);
        sub->add_option("--timeout", args->timeout,
                        "Interrupt the query after this many seconds (exit code 3)")
            ->check(CLI::PositiveNumber);
        sub->add_flag("--sandbox", args->sandbox,
                      "Let the query read only this dataset (no other files, settings locked, "
                      "memory capped at 1GB unless --memory-limit)");
        sub->add_option("--memory-limit", args->memory_limit,
                        "DuckDB memory limit for the query, e.g. 512MB");
        return sub;
    };
    c.run = [args] { return run_read_command([&] { return run_sql(*args); }); };
    return c;
}

}  // namespace taco::cli
