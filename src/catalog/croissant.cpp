// Croissant 1.0 JSON-LD (mlcommons.org/croissant/1.0): the dataset's files as `distribution`
// and each level table as a RecordSet, so a Croissant reader (mlcroissant) can list the samples'
// metadata without knowing TACO.
#include <algorithm>

#include "catalog/catalog_common.hpp"
#include "catalog/json_output.hpp"
#include "catalog/sha256.hpp"
#include "convert/dataset_access.hpp"
#include "taco/catalog.hpp"
#include "taco/errors.hpp"

namespace fs = std::filesystem;

namespace taco {
namespace {

using catalog::Json;
using catalog::SourceFile;

// The @context every Croissant 1.0 document carries (the specification's, as mlcroissant
// writes it).
Json croissant_context() {
    Json c;
    c["@language"] = "en";
    c["@vocab"] = "https://schema.org/";
    c["citeAs"] = "cr:citeAs";
    c["column"] = "cr:column";
    c["conformsTo"] = "dct:conformsTo";
    c["cr"] = "http://mlcommons.org/croissant/";
    c["rai"] = "http://mlcommons.org/croissant/RAI/";
    c["data"] = {{"@id", "cr:data"}, {"@type", "@json"}};
    c["dataType"] = {{"@id", "cr:dataType"}, {"@type", "@vocab"}};
    c["dct"] = "http://purl.org/dc/terms/";
    c["equivalentProperty"] = "cr:equivalentProperty";
    c["examples"] = {{"@id", "cr:examples"}, {"@type", "@json"}};
    for (const char* k :
         {"extract", "field", "fileProperty", "fileObject", "fileSet", "format", "includes",
          "isLiveDataset", "jsonPath", "key", "md5", "parentField", "path", "recordSet",
          "references", "regex", "repeated", "replace", "samplingRate"})
        c[k] = std::string("cr:") + k;
    c["sc"] = "https://schema.org/";
    for (const char* k : {"separator", "source", "subField", "transform"})
        c[k] = std::string("cr:") + k;
    return c;
}

// Croissant has no list or bytes type: a list is a `repeated` field of its innermost element's
// type (mlcroissant hands nested lists through as they are), bytes are sc:Text (values come back
// as Python bytes).
struct FieldType {
    std::string data_type;
    bool repeated = false;
};

FieldType croissant_type(DataType t) {
    FieldType out;
    while (t.id() == TypeId::List || t.id() == TypeId::FixedList) {
        out.repeated = true;
        t = t.element();
    }
    switch (t.id()) {
        case TypeId::Bool:
            out.data_type = "sc:Boolean";
            break;
        case TypeId::Int32:
        case TypeId::Int64:
            out.data_type = "sc:Integer";
            break;
        case TypeId::Float32:
        case TypeId::Float64:
        case TypeId::Decimal:
            out.data_type = "sc:Float";
            break;
        case TypeId::Timestamp:
        case TypeId::TimestampTz:
            out.data_type = "sc:DateTime";
            break;
        case TypeId::Date:
            out.data_type = "sc:Date";
            break;
        default:  // String, Binary, Struct, Map, Null
            out.data_type = "sc:Text";
    }
    return out;
}

// contentUrl of a source: under base_url when given, its URL when remote, else its path
// relative to the JSON file's directory (where mlcroissant looks for local files).
std::string content_url(const SourceFile& s, const fs::path& json_dir,
                        const std::string& base_url) {
    if (!base_url.empty()) {
        std::string b = base_url;
        while (!b.empty() && b.back() == '/') b.pop_back();
        return b + "/" + s.name;
    }
    if (s.remote) {
        std::string url = s.location;
        while (url.size() > 1 && url.back() == '/') url.pop_back();
        return url;
    }
    return fs::absolute(s.location).lexically_normal().lexically_relative(json_dir).string();
}

struct Distribution {
    Json files = Json::array();
    std::vector<std::string> level_source;  // per level: the @id its fields read from
    bool level_is_set = false;              // the level ids name FileSets (several parts)
    bool checksummed = true;
};

std::string level_entry(size_t d) {
    return "METADATA/level" + std::to_string(d) + ".parquet";
}

Distribution distribution(const Dataset& ds, const fs::path& json_dir, const CroissantOptions& o,
                          std::vector<std::string>& warnings) {
    Distribution dist;
    const std::vector<SourceFile> sources = catalog::source_files(ds);
    const size_t levels = ds.level_count();
    const bool many = sources.size() > 1;
    auto checksum = [&](const SourceFile& s, const fs::path& file, Json& node) {
        const bool want = o.checksum == CroissantOptions::Checksum::Yes ||
                          (o.checksum == CroissantOptions::Checksum::Auto && !s.remote);
        if (want && s.remote)
            throw IoError(s.location + ": a checksum of a remote dataset would download it; " +
                          "leave the checksum out or export the Croissant of a local copy");
        if (want)
            node["sha256"] = catalog::sha256_file(file);
        else
            dist.checksummed = false;
    };
    std::vector<std::string> zip_ids;
    for (size_t k = 0; k < sources.size(); ++k) {
        const SourceFile& s = sources[k];
        const std::string base = content_url(s, json_dir, o.base_url);
        const std::string id = many ? "part" + std::to_string(k) + "/" + s.name : s.name;
        if (!s.folder) {
            Json f{{"@type", "cr:FileObject"},
                   {"@id", id},
                   {"name", id},
                   {"description",
                    "The dataset as a TACO ZIP (STORE mode): sample bytes, "
                    "level tables and COLLECTION.json"},
                   {"contentUrl", base},
                   {"encodingFormat", "application/zip"}};
            checksum(s, s.location, f);
            dist.files.push_back(f);
            zip_ids.push_back(id);
            if (!many) {
                for (size_t d = 0; d < levels; ++d) {
                    const std::string lid = id + "/" + level_entry(d);
                    dist.files.push_back({{"@type", "cr:FileObject"},
                                          {"@id", lid},
                                          {"name", lid},
                                          {"containedIn", {{"@id", id}}},
                                          {"contentUrl", level_entry(d)},
                                          {"encodingFormat", "application/x-parquet"}});
                    dist.level_source.push_back(lid);
                }
            }
            continue;
        }
        // A FOLDER: its level tables are files of their own.
        for (size_t d = 0; d < levels; ++d) {
            const std::string lid = id + "/" + level_entry(d);
            Json f{{"@type", "cr:FileObject"},
                   {"@id", lid},
                   {"name", lid},
                   {"contentUrl", base + "/" + level_entry(d)},
                   {"encodingFormat", "application/x-parquet"}};
            checksum(s, fs::path(s.location) / level_entry(d), f);
            dist.files.push_back(f);
            if (!many) dist.level_source.push_back(lid);
        }
        if (many)
            warnings.push_back(s.location +
                               ": a FOLDER part of a concatenation is listed in the "
                               "distribution but not in the record sets (a Croissant FileSet "
                               "reads the level tables inside the ZIP parts only)");
    }
    if (many) {
        dist.level_is_set = true;
        for (size_t d = 0; d < levels; ++d) {
            const std::string sid = "level" + std::to_string(d) + ".parquet";
            Json contained = Json::array();
            for (const std::string& z : zip_ids) contained.push_back({{"@id", z}});
            dist.files.push_back(
                {{"@type", "cr:FileSet"},
                 {"@id", sid},
                 {"name", sid},
                 {"description", "Level " + std::to_string(d) + " table of every ZIP part"},
                 {"containedIn", contained},
                 {"encodingFormat", "application/x-parquet"},
                 {"includes", level_entry(d)}});
            dist.level_source.push_back(sid);
        }
    }
    if (!dist.checksummed)
        warnings.push_back(
            "no sha256 of the distributed files: Croissant validators report a FileObject "
            "without a checksum");
    return dist;
}

std::string level_description(const Dataset& ds, size_t d) {
    const PitSchema& pit = ds.pit_schema();
    if (d == 0)
        return "Level 0: " + std::to_string(ds.count()) + " " + pit.root_type +
               " samples, one row each (METADATA/level0.parquet; padding rows not counted)";
    uint64_t rows = 0;
    if (d - 1 < pit.hierarchy.size())
        for (const PitPattern& p : pit.hierarchy[d - 1]) rows += p.n;
    return "Level " + std::to_string(d) + ": " + std::to_string(rows) + " children of the level-" +
           std::to_string(d - 1) +
           " FOLDER samples; internal:parent_id is the row (internal:current_id) of the parent " +
           "in level " + std::to_string(d - 1);
}

Json record_sets(const Dataset& ds, const Distribution& dist) {
    Json sets = Json::array();
    for (size_t d = 0; d < dist.level_source.size(); ++d) {
        const std::string rs = "level" + std::to_string(d);
        Json fields = Json::array();
        bool has_row_key = false;
        for (const ColumnType& c : catalog::stored_columns(ds, d)) {
            const FieldType t = croissant_type(c.type);
            Json f{{"@type", "cr:Field"}, {"@id", rs + "/" + c.name}, {"name", c.name}};
            const std::string desc = catalog::field_description(ds, d, c.name);
            if (!desc.empty()) f["description"] = desc;
            f["dataType"] = t.data_type;
            if (t.repeated) f["repeated"] = true;
            f["source"] = {
                {dist.level_is_set ? "fileSet" : "fileObject", {{"@id", dist.level_source[d]}}},
                {"extract", {{"column", c.name}}}};
            if (c.name == "internal:current_id") has_row_key = true;
            fields.push_back(f);
        }
        Json set{{"@type", "cr:RecordSet"},
                 {"@id", rs},
                 {"name", rs},
                 {"description", level_description(ds, d)}};
        // Row numbers repeat across the parts of a concatenation: only one part has a key.
        if (has_row_key && !dist.level_is_set) set["key"] = {{"@id", rs + "/internal:current_id"}};
        set["field"] = fields;
        sets.push_back(set);
    }
    return sets;
}

Json person_or_org(const Contact& c) {
    Json p;
    p["@type"] = c.uses_provider_shape() || !c.email ? "sc:Organization" : "sc:Person";
    p["name"] = c.name ? *c.name : (c.organization ? *c.organization : "unknown");
    if (c.url) p["url"] = *c.url;
    if (c.email) p["email"] = *c.email;
    if (c.organization && c.name)
        p["affiliation"] = {{"@type", "sc:Organization"}, {"name", *c.organization}};
    return p;
}

}  // namespace

CatalogResult export_croissant(const Dataset& ds, const fs::path& out_file,
                               const CroissantOptions& o) {
    convert::DatasetAccess::check_open(ds, "export_croissant()");
    if (convert::DatasetAccess::legacy_v1(ds)) {
        // Its metadata tables are Parquet bytes at offsets inside the v1 file: no Croissant
        // FileObject can point a reader at them (a ZIP member or a file can be named, a byte
        // range cannot), so records would not load. Said before anything is written.
        throw QueryError(ds.path().string() +
                         ": a legacy v1 file cannot be described in Croissant (its tables are "
                         "not files a Croissant reader can open); migrate it first (taco migrate " +
                         ds.path().filename().string() +
                         " OUT.tacozip, or tacocore.migrate) and export the migrated dataset");
    }
    CatalogResult result;
    const fs::path json_dir = fs::absolute(out_file).lexically_normal().parent_path();
    const Distribution dist = distribution(ds, json_dir, o, result.warnings);
    Json doc;
    doc["@context"] = croissant_context();
    doc["@type"] = "sc:Dataset";
    doc["name"] = ds.id();
    if (ds.title()) doc["alternateName"] = *ds.title();
    doc["description"] = ds.description().empty() ? ds.id() : ds.description();
    doc["conformsTo"] = "http://mlcommons.org/croissant/1.0";
    if (!o.base_url.empty()) doc["url"] = o.base_url;
    Json licenses = Json::array();
    for (const std::string& l : ds.licenses()) {
        const auto url = catalog::spdx_url(l);
        licenses.push_back(url ? *url : l);
    }
    if (!licenses.empty()) doc["license"] = licenses.size() == 1 ? licenses[0] : licenses;
    if (!ds.version().empty()) doc["version"] = ds.version();
    if (const auto cite = catalog::cite_as(ds)) doc["citeAs"] = *cite;
    Json creators = Json::array();
    for (const Contact& c : ds.providers()) creators.push_back(person_or_org(c));
    if (!creators.empty()) doc["creator"] = creators;
    if (ds.curators()) {
        Json maintainers = Json::array();
        for (const Contact& c : *ds.curators()) maintainers.push_back(person_or_org(c));
        if (!maintainers.empty()) doc["maintainer"] = maintainers;
    }
    Json keywords = Json::array();
    if (ds.keywords())
        for (const std::string& k : *ds.keywords()) keywords.push_back(k);
    for (const std::string& t : ds.tasks()) keywords.push_back(t);
    if (!keywords.empty()) doc["keywords"] = keywords;
    const auto& extent = ds.extent();
    if (extent && catalog::has_geometry(ds)) {
        const auto& b = extent->spatial;
        // schema.org GeoShape box: "south west north east".
        doc["spatialCoverage"] = {
            {"@type", "sc:Place"},
            {"geo",
             {{"@type", "sc:GeoShape"},
              {"box", std::to_string(b[1]) + " " + std::to_string(b[0]) + " " +
                          std::to_string(b[3]) + " " + std::to_string(b[2])}}}};
    } else {
        result.warnings.push_back(
            "no geometry column (stac:/istac: geometry or centroid) at any level: "
            "spatialCoverage left out");
    }
    if (extent && extent->temporal)
        doc["temporalCoverage"] = (*extent->temporal)[0] + "/" + (*extent->temporal)[1];
    else
        result.warnings.push_back(
            "no temporal extent in COLLECTION.json (no time column): temporalCoverage left out");
    doc["distribution"] = dist.files;
    doc["recordSet"] = record_sets(ds, dist);
    catalog::write_json_file(out_file, doc, o.overwrite, ds.sources(),
                             "export-croissant --overwrite");
    result.path = fs::absolute(out_file).lexically_normal();
    result.items = dist.level_source.size();
    return result;
}

}  // namespace taco
