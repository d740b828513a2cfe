#include "legacy/v1_collection.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "format/collection_json.hpp"
#include "format/collection_parse.hpp"
#include "metadata/level_tables.hpp"
#include "metadata/result_table.hpp"
#include "model/extent.hpp"
#include "paths/path_display.hpp"
#include "taco/errors.hpp"

namespace taco::legacy {
namespace {

using format::OrderedJson;
using metadata::quote_literal;

// Texts for the v1 columns in taco:field_schema (spec/tortilla-0.5.0.md, spec/taco-0.2.0.md).
std::string v1_description(const std::string& name) {
    if (name == "tortilla:file_format")
        return "v1: GDAL driver name of the sample, BYTES, or TORTILLA (a nested tortilla).";
    if (name == "tortilla:data_split") return "v1: data split (train, validation or test).";
    if (name == "stac:crs") return "v1: coordinate reference system of the sample.";
    if (name == "stac:geotransform") return "v1: GDAL geotransform [a, b, c, d, e, f].";
    if (name == "stac:raster_shape") return "v1: raster shape (rows, columns).";
    if (name == "stac:time_start") return "v1: start of acquisition, seconds since the epoch.";
    if (name == "stac:time_end") return "v1: end of acquisition, seconds since the epoch.";
    if (name == "stac:centroid") return "v1: centroid in EPSG:4326 as WKT POINT text.";
    return metadata::column_description(name);
}

// A 2.0 id for a tortilla without a COLLECTION: its file stem, as v1 ids were (lowercase,
// alphanumeric); anything else is dropped.
std::string id_from_name(const std::string& name) {
    std::string stem = std::filesystem::path(name).filename().string();
    stem = stem.substr(0, stem.find('.'));
    std::string id;
    for (char c : stem)
        if (std::isalnum(static_cast<unsigned char>(c))) id += static_cast<char>(std::tolower(c));
    return id.empty() ? "tortilla" : id;
}

// v1 extent: lists of boxes ([minx, miny, maxx, maxy] or 3-D [minx, miny, minz, maxx, maxy,
// maxz]) and of [start, end] pairs. 2.0 has one box and one interval: their union.
OrderedJson v2_extent(const OrderedJson& v1, const std::string& where) {
    OrderedJson out = OrderedJson::object();
    const auto& spatial = v1.contains("spatial") ? v1["spatial"] : OrderedJson();
    if (spatial.is_array() && !spatial.empty()) {
        model::PlaceBounds place;  // a box across the antimeridian (west > east) stays covered
        for (const auto& b : spatial) {
            if (!b.is_array() || (b.size() != 4 && b.size() != 6)) {
                throw FormatError(where + ": extent.spatial holds " + b.dump() +
                                  ", expected boxes of 4 or 6 numbers");
            }
            const size_t half = b.size() / 2;
            for (const auto& v : b) {
                if (!v.is_number())
                    throw FormatError(where + ": extent.spatial holds a non-number " + v.dump());
            }
            place.add_box({b[0].get<double>(), b[1].get<double>(), b[half].get<double>(),
                           b[half + 1].get<double>()});
        }
        const std::array<double, 4> box = *place.bounds();  // spatial is not empty
        out["spatial"] = {box[0], box[1], box[2], box[3]};
    }
    const auto& temporal = v1.contains("temporal") ? v1["temporal"] : OrderedJson();
    if (temporal.is_array() && !temporal.empty()) {
        std::string start, end;
        for (const auto& t : temporal) {
            if (!t.is_array() || t.size() != 2) {
                throw FormatError(where + ": extent.temporal holds " + t.dump() +
                                  ", expected [start, end] pairs");
            }
            // RFC 3339 texts of one zone order as strings; null is an open end.
            if (t[0].is_string() && (start.empty() || t[0].get<std::string>() < start))
                start = t[0].get<std::string>();
            if (t[1].is_string() && (end.empty() || t[1].get<std::string>() > end))
                end = t[1].get<std::string>();
        }
        if (!start.empty() && !end.empty()) out["temporal"] = {start, end};
    }
    return out;
}

// taco:pit_schema as the reference computes it (FORMAT.md §5.4): level 1 has one pattern, the
// children of the first FOLDER root; level d >= 2 one pattern per FOLDER id of level d-1's first
// pattern, the children of the first parent with that id, `n` counting the rows under every
// parent with that id. v1 does not require nested tortillas to look alike: load() reads such a
// file anyway, migrate() refuses it (v1_migrate.cpp) since TACO 2.0 does.
OrderedJson pit_schema(const V1Tables& t, metadata::DuckSession& db) {
    auto level = [&](size_t d) {
        return "read_parquet(" + quote_literal(t.levels[d]->proc_path()) + ")";
    };
    OrderedJson root = OrderedJson::object();
    root["n"] = t.rows[0];
    const std::string folders =
        db.query_scalar("SELECT count(*) FROM " + level(0) + " WHERE type = 'FOLDER'");
    root["type"] = folders != "0" ? "FOLDER" : "FILE";
    OrderedJson hierarchy = OrderedJson::object();
    std::vector<std::string> keys{""};  // level 1: every FOLDER root
    for (size_t d = 1; d < t.levels.size() && !keys.empty(); ++d) {
        OrderedJson patterns = OrderedJson::array();
        std::vector<std::string> next_keys;
        for (const std::string& key : keys) {
            const std::string parents = "SELECT \"internal:current_id\" FROM " + level(d - 1) +
                                        " WHERE type = 'FOLDER'" +
                                        (d == 1 ? "" : " AND id = " + quote_literal(key));
            auto rows = metadata::ResultTable::fetch(
                db, "SELECT id, type FROM " + level(d) +
                        " WHERE \"internal:parent_id\" = (SELECT " +
                        "min(\"internal:current_id\") FROM (" + parents + ")) ORDER BY " +
                        "\"internal:current_id\"");
            if (rows->rows() == 0) continue;
            OrderedJson pattern = OrderedJson::object();
            pattern["n"] =
                std::stoull(db.query_scalar("SELECT count(*) FROM " + level(d) +
                                            " WHERE \"internal:parent_id\" IN (" + parents + ")"));
            pattern["type"] = OrderedJson::array();
            pattern["id"] = OrderedJson::array();
            for (size_t r = 0; r < rows->rows(); ++r) {
                const std::string id(rows->get_string(r, 0)), type(rows->get_string(r, 1));
                pattern["type"].push_back(type);
                pattern["id"].push_back(id);
                if (patterns.empty() && type == "FOLDER") next_keys.push_back(id);
            }
            patterns.push_back(std::move(pattern));
        }
        if (patterns.empty()) break;
        hierarchy[std::to_string(d)] = std::move(patterns);
        keys = std::move(next_keys);
    }
    OrderedJson pit = OrderedJson::object();
    pit["root"] = std::move(root);
    pit["hierarchy"] = std::move(hierarchy);
    return pit;
}

// A v1 Contact (the STAC contacts extension: name, organization, emails, roles, links, ...) in
// the TACO 2.0 shape {name, organization, email, role}; the fields 2.0 has no place for stay in
// legacy_v1.collection.
OrderedJson v2_contact(const OrderedJson& c) {
    if (!c.is_object()) return c;
    OrderedJson out = OrderedJson::object();
    for (const char* key : {"name", "organization"})
        if (c.contains(key) && c[key].is_string()) out[key] = c[key];
    if (c.contains("emails") && c["emails"].is_array() && !c["emails"].empty() &&
        c["emails"][0].is_object() && c["emails"][0].contains("value") &&
        c["emails"][0]["value"].is_string()) {
        out["email"] = c["emails"][0]["value"];
    }
    if (c.contains("roles") && c["roles"].is_array()) {
        std::string role;
        for (const auto& r : c["roles"])
            if (r.is_string()) role += (role.empty() ? "" : ", ") + r.get<std::string>();
        if (!role.empty()) out["role"] = role;
    }
    return out;
}

OrderedJson v2_contacts(const OrderedJson& list) {
    if (!list.is_array()) return list;
    OrderedJson out = OrderedJson::array();
    for (const auto& c : list) out.push_back(v2_contact(c));
    return out;
}

OrderedJson field_schema(const V1Tables& t) {
    OrderedJson fs = OrderedJson::object();
    for (size_t d = 0; d < t.columns.size(); ++d) {
        OrderedJson cols = OrderedJson::array();
        for (const ColumnType& c : t.columns[d]) {
            if (c.name == "internal:offset" || c.name == "internal:size") continue;
            cols.push_back({c.name, c.type.arrow_name(), v1_description(c.name)});
        }
        fs["level" + std::to_string(d)] = std::move(cols);
    }
    return fs;
}

}  // namespace

std::string v2_collection_json(const V1Tables& tables, const std::string& name,
                               metadata::DuckSession& db) {
    const std::string where = name + ": COLLECTION";
    OrderedJson v1 = OrderedJson::object();
    if (!tables.collection_text.empty()) {
        v1 = format::parse_json_document(tables.collection_text, where);
        if (!v1.is_object()) throw FormatError(where + ": expected a JSON object");
        if (v1.contains("taco_version")) {
            const auto& v = v1["taco_version"];
            if (!v.is_string() || v.get<std::string>().rfind("0.", 0) != 0) {
                throw FormatError(where + ": unknown v1 version: taco_version is " + v.dump() +
                                  ", expected a 0.x version (TACO v1); TACO 2.0 datasets are "
                                  "ZIP or FOLDER, not .taco files");
            }
        }
    }
    OrderedJson doc = OrderedJson::object();
    auto take = [&](const char* key, OrderedJson fallback) {
        doc[key] = v1.contains(key) && !v1[key].is_null() ? v1[key] : std::move(fallback);
    };
    take("id", id_from_name(name));
    // COLLECTION.json is UTF-8: a file name that is not is recorded escaped (`\xff`).
    const std::string file_name =
        paths::escape_invalid_utf8(std::filesystem::path(name).filename().string());
    take("dataset_version", "unknown");
    take("description", "Migrated from the " + std::string(to_string(tables.header.kind)) +
                            " file " + file_name + ".");
    take("licenses", OrderedJson::array());
    doc["providers"] =
        v1.contains("providers") ? v2_contacts(v1["providers"]) : OrderedJson::array();
    doc["tasks"] = v1.contains("task") && v1["task"].is_string() ? OrderedJson::array({v1["task"]})
                                                                 : OrderedJson::array();
    doc["taco_version"] = "2.0.0";
    for (const char* key : {"title", "keywords"})
        if (v1.contains(key) && !v1[key].is_null()) doc[key] = v1[key];
    if (v1.contains("curators") && !v1["curators"].is_null())
        doc["curators"] = v2_contacts(v1["curators"]);
    if (v1.contains("extent") && v1["extent"].is_object())
        doc["extent"] = v2_extent(v1["extent"], where);
    // The v1 extension fields (split_strategy, discuss_link, raw_link, optical_data, labels,
    // scientific, and any other key) keep their names and values; nulls are dropped.
    static const char* mapped[] = {
        "id",           "dataset_version", "description", "licenses", "providers", "task",
        "taco_version", "title",           "curators",    "keywords", "extent"};
    for (const auto& [key, value] : v1.items()) {
        if (std::find(std::begin(mapped), std::end(mapped), key) != std::end(mapped)) continue;
        if (!value.is_null()) doc[key] = value;
    }
    OrderedJson legacy = OrderedJson::object();
    legacy["format"] = to_string(tables.header.kind);
    legacy["file"] = file_name;
    if (!tables.collection_text.empty()) legacy["collection"] = v1;
    doc["legacy_v1"] = std::move(legacy);
    doc["taco:pit_schema"] = pit_schema(tables, db);
    doc["taco:field_schema"] = field_schema(tables);
    return format::dump_python_style(doc);
}

}  // namespace taco::legacy
