// DataCite Metadata Schema 4.5 in its JSON form (the REST API's `attributes`, the shape the
// `datacite` Python package validates): what a repository needs to mint a DOI for the dataset.
#include <cstdio>
#include <ctime>

#include "catalog/catalog_common.hpp"
#include "catalog/json_output.hpp"
#include "convert/dataset_access.hpp"
#include "taco/catalog.hpp"
#include "taco/errors.hpp"

namespace fs = std::filesystem;

namespace taco {
namespace {

using catalog::Json;

// DataCite's standard value for a mandatory property that is not known.
constexpr const char* kUnavailable = "(:unav)";

Json name_record(const Contact& c) {
    Json p;
    // A contact with an email or an organization beside its name is a person; one in the
    // provider shape (roles, url) is an organization, as STAC providers are.
    const bool person = !c.uses_provider_shape() && (c.email || c.organization);
    p["name"] = c.name ? *c.name : (c.organization ? *c.organization : kUnavailable);
    p["nameType"] = person ? "Personal" : "Organizational";
    if (person && c.organization && c.name)
        p["affiliation"] = Json::array({{{"name", *c.organization}}});
    return p;
}

bool has_role(const Contact& c, const std::string& role) {
    if (c.role && *c.role == role) return true;
    if (c.roles)
        for (const std::string& r : *c.roles)
            if (r == role) return true;
    return false;
}

std::string publisher_of(const Dataset& ds, const DataCiteOptions& o) {
    if (!o.publisher.empty()) return o.publisher;
    for (const Contact& c : ds.providers())
        if (has_role(c, "host") && c.name) return *c.name;
    for (const Contact& c : ds.providers())
        if (c.name) return *c.name;
    return kUnavailable;
}

int current_year() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    return tm.tm_year + 1900;
}

std::string spdx_id_of(const std::string& url) {
    const std::string prefix = "https://spdx.org/licenses/";
    std::string id = url.substr(prefix.size());
    return id.substr(0, id.size() - 5);  // ".html"
}

}  // namespace

CatalogResult export_datacite(const Dataset& ds, const fs::path& out_file,
                              const DataCiteOptions& o) {
    convert::DatasetAccess::check_open(ds, "export_datacite()");
    CatalogResult result;
    if (o.publication_year != 0 && (o.publication_year < 1000 || o.publication_year > 9999))
        throw QueryError("publication year must have four digits, not " +
                         std::to_string(o.publication_year));
    if (!o.doi.empty() && o.doi.rfind("10.", 0) != 0)
        throw QueryError("a DOI starts with \"10.\" (e.g. 10.5281/zenodo.123), not \"" + o.doi +
                         "\"");
    Json doc;
    if (!o.doi.empty()) doc["doi"] = o.doi;
    doc["types"] = {{"resourceTypeGeneral", "Dataset"}, {"resourceType", "TACO dataset"}};
    Json creators = Json::array();
    for (const Contact& c : ds.providers()) creators.push_back(name_record(c));
    if (creators.empty()) {
        creators.push_back({{"name", kUnavailable}});
        result.warnings.push_back("no providers in COLLECTION.json: creator is (:unav)");
    }
    doc["creators"] = creators;
    Json titles = Json::array({{{"title", ds.title() ? *ds.title() : ds.id()}}});
    if (ds.title() && *ds.title() != ds.id())
        titles.push_back({{"title", ds.id()}, {"titleType", "AlternativeTitle"}});
    doc["titles"] = titles;
    const std::string publisher = publisher_of(ds, o);
    if (publisher == kUnavailable)
        result.warnings.push_back("no publisher given and no provider named: publisher is (:unav)");
    doc["publisher"] = {{"name", publisher}};
    char year[8];
    std::snprintf(year, sizeof year, "%04d",
                  o.publication_year != 0 ? o.publication_year : current_year());
    doc["publicationYear"] = year;
    Json subjects = Json::array();
    if (ds.keywords())
        for (const std::string& k : *ds.keywords()) subjects.push_back({{"subject", k}});
    for (const std::string& t : ds.tasks())
        subjects.push_back({{"subject", t}, {"subjectScheme", "TACO task"}});
    if (!subjects.empty()) doc["subjects"] = subjects;
    if (ds.curators()) {
        Json contributors = Json::array();
        for (const Contact& c : *ds.curators()) {
            Json p = name_record(c);
            p["contributorType"] = "DataCurator";
            contributors.push_back(p);
        }
        if (!contributors.empty()) doc["contributors"] = contributors;
    }
    const auto& extent = ds.extent();
    if (extent && extent->temporal) {
        doc["dates"] =
            Json::array({{{"date", (*extent->temporal)[0] + "/" + (*extent->temporal)[1]},
                          {"dateType", "Collected"}}});
    } else {
        result.warnings.push_back(
            "no temporal extent in COLLECTION.json (no time column): dates left out");
    }
    doc["alternateIdentifiers"] =
        Json::array({{{"alternateIdentifier", ds.id()}, {"alternateIdentifierType", "TACO id"}}});
    const std::string container =
        convert::DatasetAccess::legacy_v1(ds)
            ? "TACO v1 file (.taco / .tortilla: samples and a Parquet FOOTER in one file)"
        : ds.format() == ContainerFormat::Folder
            ? "TACO FOLDER (directory of files, Parquet metadata)"
            : "application/zip";
    // Samples, not rows: padding (`__TACOPAD__*`, --pad-to) is not data.
    doc["sizes"] = Json::array({std::to_string(ds.count()) + " samples"});
    doc["formats"] = Json::array({container});
    if (!ds.version().empty()) doc["version"] = ds.version();
    Json rights = Json::array();
    for (const std::string& l : ds.licenses()) {
        Json r{{"rights", l}};
        if (const auto url = catalog::spdx_url(l)) {
            r["rightsUri"] = *url;
            r["rightsIdentifier"] = spdx_id_of(*url);
            r["rightsIdentifierScheme"] = "SPDX";
            r["schemeUri"] = "https://spdx.org/licenses/";
        }
        rights.push_back(r);
    }
    if (!rights.empty()) doc["rightsList"] = rights;
    if (!ds.description().empty())
        doc["descriptions"] =
            Json::array({{{"description", ds.description()}, {"descriptionType", "Abstract"}}});
    if (extent && catalog::has_geometry(ds)) {
        const auto& b = extent->spatial;
        doc["geoLocations"] = Json::array({{{"geoLocationBox",
                                             {{"westBoundLongitude", b[0]},
                                              {"eastBoundLongitude", b[2]},
                                              {"southBoundLatitude", b[1]},
                                              {"northBoundLatitude", b[3]}}}}});
    } else {
        result.warnings.push_back(
            "no geometry column (stac:/istac: geometry or centroid) at any level: "
            "geoLocations left out");
    }
    doc["schemaVersion"] = "http://datacite.org/schema/kernel-4";
    catalog::write_json_file(out_file, doc, o.overwrite, ds.sources(),
                             "export-datacite --overwrite");
    result.path = fs::absolute(out_file).lexically_normal();
    return result;
}

}  // namespace taco
