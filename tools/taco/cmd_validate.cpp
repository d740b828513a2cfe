// `taco validate PATH [--json]`: the full compliance report. Exit 0 when valid, 1 when there are
// findings of severity error, 2 for usage or I/O errors and for layouts tacocore does not check.
#include <iostream>

#include "arg_checks.hpp"
#include "commands.hpp"
#include "format/legacy_detect.hpp"
#include "output.hpp"
#include "taco/validate.hpp"

namespace taco::cli {
namespace {

struct ValidateArgs {
    std::string path;
    bool json = false, crc = false, tog = false;
    size_t max_findings = 50;
};

int run_validate(const ValidateArgs& a) {
    ValidateOptions options;
    options.max_per_check = a.max_findings;
    options.check_crc = a.crc;
    options.check_tog = a.tog;
    const ValidationReport report = validate(a.path, options);
    const size_t errors = report.count(Severity::Error), warnings = report.count(Severity::Warning);
    if (a.json) {
        Json j = Json::object();
        j["path"] = report.path.string();
        j["format"] = to_string(report.format);
        j["valid"] = report.valid();
        j["errors"] = errors;
        j["warnings"] = warnings;
        j["infos"] = report.count(Severity::Info);
        j["suppressed"] = report.suppressed;
        Json findings = Json::array();
        for (const auto& f : report.findings) {
            findings.push_back({{"severity", to_string(f.severity)},
                                {"code", f.code},
                                {"location", f.location},
                                {"message", f.message}});
        }
        j["findings"] = std::move(findings);
        print_json(std::cout, j);
    } else {
        for (const auto& f : report.findings) {
            std::cout << to_string(f.severity) << "  " << f.code << "  " << f.location << ": "
                      << f.message << "\n";
        }
        std::cout << report.path.string() << ": " << (report.valid() ? "valid" : "INVALID") << " ("
                  << errors << " error" << (errors == 1 ? "" : "s") << ", " << warnings
                  << " warning" << (warnings == 1 ? "" : "s") << ")\n";
    }
    // A layout tacocore recognises but cannot check (a legacy v1 dataset) is unsupported, not
    // invalid: exit 2, as for any input tacocore cannot work with.
    for (const auto& f : report.findings)
        if (f.code == format::kUnsupportedFinding) return kExitUsage;
    return report.valid() ? kExitOk : kExitInvalid;
}

}  // namespace

Command make_validate_command() {
    auto args = std::make_shared<ValidateArgs>();
    Command c;
    c.add = [args](CLI::App& app) {
        CLI::App* sub =
            app.add_subcommand("validate", "Check a dataset against the TACO 2.0 specification");
        sub->add_option("path", args->path,
                        "Dataset: a .tacozip/.zip file or a FOLDER dataset directory")
            ->required();
        sub->add_flag("--json", args->json, "Print the report as JSON");
        sub->add_flag("--crc", args->crc,
                      "Also verify the CRC-32 of every ZIP entry (reads all data)");
        sub->add_flag("--tog", args->tog,
                      "Report for every GeoTIFF sample whether it is a TACO-optimized GeoTIFF "
                      "(taco cog)");
        sub->add_option("--max-findings", args->max_findings,
                        "Findings shown per check and file (default 50)")
            ->check(at_least_one());
        return sub;
    };
    c.run = [args] { return run_validate(*args); };
    return c;
}

}  // namespace taco::cli
