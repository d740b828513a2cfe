// `taco sql PATH QUERY [--json|--csv]`: runs a query with `data` = level 0 (padding hidden, with
// internal:gdal_vsi); `level0`..`levelN` are there too. Prints exactly the selected columns.
#include <iostream>
#include <sstream>

#include "arg_checks.hpp"
#include "commands.hpp"
#include "error_report.hpp"
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

// --json and --csv print rows as DuckDB produces them, one chunk in memory at a time: the output
// of a 10-million-row query costs what its text costs, not the whole result plus its JSON tree.
void stream_rows(const Dataset& view, const SqlArgs& a) {
    // Nothing is printed before the first rows exist: a query that fails to bind leaves
    // standard output empty (its error goes to standard error).
    bool first = true;
    view.stream_raw([&](const DataFrame& batch) {
        if (first && a.json) std::cout << '[';
        if (first && a.csv) print_csv_header(std::cout, batch);
        if (a.json) {
            print_json_rows(std::cout, batch, first);
        } else {
            print_csv_rows(std::cout, batch);
        }
        first = false;
        if (!std::cout) check_standard_output();  // a full disk stops the query now
    });
    if (a.json) std::cout << (first ? "[]\n" : "]\n");
    // No rows: the header still names the columns.
    if (first && a.csv) print_csv_header(std::cout, view.columns());
}

int run_sql(const SqlArgs& a) {
    // The query runs on this process's only DuckDB sessions: the cancel hooks interrupt it.
    io::Deadline deadline(a.timeout, [] { io::run_cancel_hooks(); });
    try {
        LoadOptions options;
        options.sandbox = a.sandbox;
        options.memory_limit = a.memory_limit;
        const Dataset view = load(a.path, options).sql(a.query);
        if (query::is_explain(a.query)) {
            // A plan is a few rows, fetched whole so the user's own statement is echoed.
            const DataFrame plan = view.data_raw();
            if (a.json) {
                print_json_frame(std::cout, plan);
            } else if (a.csv) {
                print_csv(std::cout, plan);
            } else {
                print_plan(std::cout, plan);
            }
        } else if (a.json || a.csv) {
            stream_rows(view, a);
        } else {
            print_table(std::cout, view.data_raw());
        }
    } catch (const Error&) {
        if (!deadline.expired()) throw;
        std::ostringstream message;
        message << "the query did not finish within --timeout " << a.timeout
                << " s and was interrupted";
        return report_error(message.str(), "TimeoutError", kExitLimit);
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
            ->check(positive_number("seconds"));
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
