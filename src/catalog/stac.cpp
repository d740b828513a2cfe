// STAC export: the collection document from COLLECTION.json, one Item per level-0 row of the view.
#include <cpl_conv.h>
#include <cpl_error.h>
#include <ogr_api.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iterator>
#include <vector>

#include <nlohmann/json.hpp>

#include "convert/dataset_access.hpp"
#include "io/stable_hash.hpp"
#include "io/staged_output.hpp"
#include "model/time_format.hpp"
#include "taco/catalog.hpp"
#include "taco/errors.hpp"
#include "taco/sample.hpp"

namespace fs = std::filesystem;

namespace taco {
namespace {

using Json = nlohmann::ordered_json;

std::string first_column(const std::vector<ColumnType>& cols,
                         std::initializer_list<const char*> names, TypeId type) {
    for (const char* n : names)
        for (const ColumnType& c : cols)
            if (c.name == n && c.type.id() == type) return n;
    return "";
}

// GeoJSON geometry and bbox of a WKB value (through OGR); null when it does not parse.
std::pair<Json, Json> geojson(std::string_view wkb) {
    OGRGeometryH g = nullptr;
    if (OGR_G_CreateFromWkbEx(wkb.data(), nullptr, &g, wkb.size()) != OGRERR_NONE || !g) {
        return {nullptr, nullptr};
    }
    char* text = OGR_G_ExportToJson(g);
    OGREnvelope env;
    OGR_G_GetEnvelope(g, &env);
    OGR_G_DestroyGeometry(g);
    if (!text) return {nullptr, nullptr};
    Json geometry = Json::parse(text);
    CPLFree(text);
    return {geometry, Json::array({env.MinX, env.MinY, env.MaxX, env.MaxY})};
}

// The item's file name, which is also its link's href: the id where it is made of A-Z a-z 0-9
// '-' '.' '_', else every other byte written "~XX" (hex; '~' itself too, so two ids never share
// a name). A percent-encoded href would be the correct URI for a file named by the raw id, but
// pystac reads local hrefs without decoding them, and a raw '#' or '%' is no URI at all: a name
// that needs no encoding reads the same from a disk and over HTTP. A name longer than a file
// system allows is cut, with a hash of the whole id.
std::string item_file_name(const std::string& id) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string name;
    std::vector<size_t> cuts;  // where a cut keeps escapes whole
    for (const char ch : id) {
        cuts.push_back(name.size());
        const auto c = static_cast<unsigned char>(ch);
        if (std::isalnum(c) || c == '-' || c == '.' || c == '_') {
            name += ch;
        } else {
            name += '~';
            name += kHex[c >> 4];
            name += kHex[c & 15];
        }
    }
    constexpr size_t kMaxStem = 250;  // NAME_MAX 255 with ".json"
    if (name.size() > kMaxStem) {
        const std::string tail = "~~" + io::stable_hash_hex(id);  // 18 characters
        const size_t keep =
            *std::prev(std::upper_bound(cuts.begin(), cuts.end(), kMaxStem - tail.size()));
        name = name.substr(0, keep) + tail;
    }
    return name + ".json";
}

void write_json(const fs::path& p, const Json& doc) {
    std::ofstream f(p, std::ios::binary);
    f << doc.dump(2) << "\n";
    f.close();
    if (!f) throw IoError("cannot write " + p.string());
}

}  // namespace

CatalogResult export_stac(const Dataset& view, const fs::path& out_dir, bool overwrite) {
    convert::DatasetAccess::check_open(view, "export_stac()");
    CatalogResult result;
    const std::vector<ColumnType> cols = view.columns();
    const std::string geom =
        first_column(cols, {"stac:geometry", "istac:geometry"}, TypeId::Binary);
    const std::string start =
        first_column(cols, {"stac:time_start", "istac:time_start"}, TypeId::Timestamp);
    const std::string end =
        first_column(cols, {"stac:time_end", "istac:time_end"}, TypeId::Timestamp);
    if (geom.empty())
        result.warnings.push_back(
            "no stac:geometry or istac:geometry column: items have a null "
            "geometry and no bbox");
    // The collection's temporal extent stands in for a sample without a time of its own.
    std::optional<std::array<std::string, 2>> collection_span;
    if (view.extent() && view.extent()->temporal) collection_span = *view.extent()->temporal;
    if (start.empty())
        result.warnings.push_back(
            collection_span
                ? "no stac:time_start or istac:time_start column: items have a null datetime "
                  "and the collection's temporal extent as start_datetime/end_datetime"
                : "no stac:time_start or istac:time_start column and no temporal extent: items "
                  "have a null datetime and no range, which STAC readers such as pystac refuse");
    auto q = [](const std::string& c) { return "\"" + c + "\""; };
    std::string select = "SELECT id, type, \"internal:gdal_vsi\"";
    select += geom.empty() ? ", NULL::BLOB" : ", " + q(geom);
    select += start.empty() ? ", NULL::BIGINT" : ", epoch_us(" + q(start) + ")";
    select += end.empty() ? ", NULL::BIGINT" : ", epoch_us(" + q(end) + ")";
    const DataFrame rows = view.sql(select + " FROM data").data_raw();
    if (rows.rows() == 0) {
        throw QueryError(view.path().string() +
                         ": the view keeps no sample, so there is no STAC item to write "
                         "(nothing was written)");
    }
    OGRRegisterAll();

    const Json doc = Json::parse(view.collection_json());
    if (overwrite && fs::exists(out_dir) && !fs::is_regular_file(out_dir / "collection.json"))
        throw IoError("refusing to overwrite " + out_dir.string() +
                      ": it is not a STAC export (no collection.json)");
    io::StagedOutput staged(out_dir, overwrite);
    fs::create_directories(staged.staging() / "items");

    Json collection;
    collection["type"] = "Collection";
    collection["stac_version"] = "1.0.0";
    collection["id"] = view.id();
    if (view.title()) collection["title"] = *view.title();
    collection["description"] = view.description().empty() ? view.id() : view.description();
    if (view.keywords()) collection["keywords"] = *view.keywords();
    const auto& licenses = view.licenses();
    collection["license"] = licenses.size() == 1 ? licenses[0] : "various";
    Json providers = Json::array();
    if (doc.contains("providers") && doc["providers"].is_array()) {
        for (const Json& p : doc["providers"]) {
            if (!p.is_object() || !p.contains("name")) continue;
            Json out{{"name", p["name"]}};
            if (p.contains("roles") && p["roles"].is_array()) out["roles"] = p["roles"];
            if (p.contains("url") && p["url"].is_string()) out["url"] = p["url"];
            providers.push_back(out);
        }
    }
    if (!providers.empty()) collection["providers"] = providers;
    Json interval = Json::array({nullptr, nullptr});
    Json bbox = Json::array({-180.0, -90.0, 180.0, 90.0});
    if (view.extent()) {
        const auto& s = view.extent()->spatial;
        bbox = Json::array({s[0], s[1], s[2], s[3]});
        if (view.extent()->temporal)
            interval = Json::array({(*view.extent()->temporal)[0], (*view.extent()->temporal)[1]});
    }
    collection["extent"] = {{"spatial", {{"bbox", Json::array({bbox})}}},
                            {"temporal", {{"interval", Json::array({interval})}}}};
    collection["links"] = Json::array(
        {{{"rel", "root"}, {"href", "./collection.json"}, {"type", "application/json"}}});

    for (size_t r = 0; r < rows.rows(); ++r) {
        const std::string id(rows.get_string(r, 0));
        validate_sample_id(id);  // it names a file
        Json item;
        item["type"] = "Feature";
        item["stac_version"] = "1.0.0";
        item["id"] = id;
        auto [geometry, item_bbox] = rows.is_null(r, 3) ? std::pair<Json, Json>{nullptr, nullptr}
                                                        : geojson(rows.get_string(r, 3));
        item["geometry"] = geometry;
        if (!item_bbox.is_null()) item["bbox"] = item_bbox;
        Json props = Json::object();
        if (!rows.is_null(r, 4)) {
            props["datetime"] = model::format_iso_utc(rows.get_int(r, 4));
            if (!rows.is_null(r, 5)) {
                props["start_datetime"] = props["datetime"];
                props["end_datetime"] = model::format_iso_utc(rows.get_int(r, 5));
            }
        } else {
            // STAC allows a null datetime only with a range: the collection's (each sample lies
            // in it); without one the item is not valid STAC, which the warning says.
            props["datetime"] = nullptr;
            if (collection_span) {
                props["start_datetime"] = (*collection_span)[0];
                props["end_datetime"] = (*collection_span)[1];
            }
        }
        props["taco:type"] = std::string(rows.get_string(r, 1));
        item["properties"] = props;
        const bool folder = rows.get_string(r, 1) == "FOLDER";
        Json asset{{"href", rows.is_null(r, 2) ? "" : std::string(rows.get_string(r, 2))},
                   {"roles", Json::array({folder ? "metadata" : "data"})}};
        if (folder) asset["type"] = "application/vnd.apache.parquet";
        item["assets"] = {{folder ? "children" : "data", asset}};
        item["links"] = Json::array(
            {{{"rel", "collection"}, {"href", "../collection.json"}, {"type", "application/json"}},
             {{"rel", "parent"}, {"href", "../collection.json"}, {"type", "application/json"}},
             {{"rel", "root"}, {"href", "../collection.json"}, {"type", "application/json"}}});
        item["collection"] = view.id();
        const std::string file = item_file_name(id);
        write_json(staged.staging() / "items" / file, item);
        collection["links"].push_back(
            {{"rel", "item"}, {"href", "./items/" + file}, {"type", "application/json"}});
        ++result.items;
    }
    write_json(staged.staging() / "collection.json", collection);
    staged.commit();
    result.path = out_dir / "collection.json";
    return result;
}

}  // namespace taco
