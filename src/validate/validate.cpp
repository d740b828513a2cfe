// taco::validate: detect the container, run its checks, and the COLLECTION.json checks.
#include "taco/validate.hpp"

#include "format/collection_parse.hpp"
#include "format/dataset_open.hpp"
#include "format/legacy_detect.hpp"
#include "io/location.hpp"
#include "query/dataset_context.hpp"
#include "taco/errors.hpp"
#include "validate/validate_checks.hpp"
#include "validate/validate_collection.hpp"
#include "validate/validate_tog.hpp"

namespace taco::format {
namespace {

// The parser's messages start with the source they were given; the finding already names it.
std::string without_where(const std::string& message, const std::string& where) {
    const std::string prefix = where + ": ";
    return message.compare(0, prefix.size(), prefix) == 0 ? message.substr(prefix.size()) : message;
}

}  // namespace

std::optional<CollectionDocument> check_collection(FindingSink& sink, std::string text,
                                                   const std::string& where) {
    OrderedJson json;
    try {
        json = parse_json_document(text, where);
    } catch (const FormatError& e) {
        sink.error("collection.json", where, without_where(e.what(), where));
        return std::nullopt;
    }
    if (!json.is_object()) {
        sink.error("collection.json", where, "the document is not a JSON object");
        return std::nullopt;
    }
    for (const char* key : {"id", "dataset_version", "description", "licenses", "providers",
                            "tasks", "taco_version", "taco:pit_schema"}) {
        if (!json.contains(key)) {
            sink.error("collection.field", where,
                       std::string("required field '") + key + "' is missing");
        }
    }
    CollectionDocument doc;
    try {
        doc = read_collection_document(std::move(text), where);
    } catch (const SchemaError& e) {
        sink.error("collection.pit-schema", where, without_where(e.what(), where));
        return std::nullopt;
    } catch (const FormatError& e) {
        sink.error("collection.field", where, without_where(e.what(), where));
        return std::nullopt;
    }
    try {
        // A missing taco_version is reported above; the model would report it again as empty.
        CollectionInfo checked = doc.info;
        if (!json.contains("taco_version")) checked.taco_version = "2.0.0";
        validate_collection(checked);
    } catch (const SchemaError& e) {
        sink.error("collection.field", where, without_where(e.what(), where));
    }
    return doc;
}

}  // namespace taco::format

namespace taco {

ValidationReport validate(const std::filesystem::path& path, const ValidateOptions& options) {
    ValidationReport report;
    report.path = path;
    format::FindingSink sink(report, options.max_per_check == 0 ? 1 : options.max_per_check);
    if (io::is_remote(path.string())) {
        metadata::DuckSession db;
        query::configure_reader_session(db);
        if (const auto layout = collection::remote_index_layout(path.string())) {
            report.format = ContainerFormat::Zip;
            collection::validate_remote_collection(path.string(), *layout, sink, db, options);
        } else {
            report.format = format::validate_remote(path, sink, db);
        }
        if (options.check_tog) convert::add_tog_findings(path, sink);
        sink.finish();
        return report;
    }
    std::optional<collection::IndexLocation> index;
    try {
        index = collection::find_index(path);
    } catch (const Error& e) {
        sink.error("container", path.string(), e.what());
        sink.finish();
        return report;
    }
    if (index) {
        report.format = ContainerFormat::Zip;
        metadata::DuckSession db;
        query::configure_reader_session(db);
        collection::validate_collection(*index, sink, db, options);
        if (options.check_tog) convert::add_tog_findings(path, sink);
        sink.finish();
        return report;
    }
    if (format::is_legacy_v1(path)) {
        // Samples are byte ranges of one file, as in a ZIP (Dataset::format() of a v1 file).
        report.format = ContainerFormat::Zip;
        format::validate_legacy_v1(path, sink);
        if (options.check_tog) convert::add_tog_findings(path, sink);
        sink.finish();
        return report;
    }
    try {
        report.format = format::detect_container(path);
    } catch (const FormatError& e) {
        // Valid data in a layout tacocore does not check is not an invalid dataset.
        sink.error(format::is_legacy_v1(path) ? format::kUnsupportedFinding : "container",
                   path.string(), e.what());
        sink.finish();
        return report;
    }
    metadata::DuckSession db;
    query::configure_reader_session(db);
    if (report.format == ContainerFormat::Zip) {
        format::validate_zip(path, sink, db, options);
    } else {
        format::validate_folder(path, sink, db, options);
    }
    if (options.check_tog) convert::add_tog_findings(path, sink);
    sink.finish();
    return report;
}

}  // namespace taco
