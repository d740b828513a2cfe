// The TACO-level extensions (OpticalData, Labels, Publications, SplitStrategy): validation and
// their COLLECTION.json keys, exactly as tacotoolbox 0.26.9 writes them (key order, nulls for
// absent optional fields, categories as text); and the same from tacotoolbox's arguments as JSON.
#include <set>

#include <nlohmann/json.hpp>

#include "taco/errors.hpp"
#include "taco/extensions.hpp"

namespace taco::ext {
namespace {

using OrderedJson = nlohmann::ordered_json;

template <class T>
OrderedJson or_null(const std::optional<T>& v) {
    return v ? OrderedJson(*v) : OrderedJson(nullptr);
}

// A string as JSON text (a COLLECTION value).
std::string json_text(const std::string& s) {
    return OrderedJson(s).dump();
}

// A string quoted in a message, as Python's repr would (the Python errors read the same).
std::string quoted(const std::string& s) {
    return "'" + s + "'";
}

const std::vector<std::string>& strategies() {
    static const std::vector<std::string> v = {"random", "stratified", "manual",
                                               "other",  "none",       "unknown"};
    return v;
}

// ---- reading tacotoolbox's arguments ----

[[noreturn]] void bad(const std::string& where, const std::string& what) {
    throw SchemaError((where.empty() ? "" : where + ": ") + what);
}

std::string json_type(const OrderedJson& v) {
    return v.is_null() ? "null" : std::string(v.type_name());
}

const OrderedJson* member(const OrderedJson& obj, const char* key) {
    auto it = obj.find(key);
    return it == obj.end() || it->is_null() ? nullptr : &*it;
}

std::optional<std::string> opt_string(const OrderedJson& obj, const char* key,
                                      const std::string& owner, const std::string& where) {
    const OrderedJson* v = member(obj, key);
    if (!v) return std::nullopt;
    if (!v->is_string())
        bad(where, owner + ": field '" + key + "' must be a string, not " + json_type(*v));
    return v->get<std::string>();
}

std::string req_string(const OrderedJson& obj, const char* key, const std::string& owner,
                       const std::string& where) {
    auto v = opt_string(obj, key, owner, where);
    if (!v) bad(where, owner + ": field '" + key + "' is required");
    return *v;
}

std::optional<double> opt_number(const OrderedJson& obj, const char* key, const std::string& owner,
                                 const std::string& where) {
    const OrderedJson* v = member(obj, key);
    if (!v) return std::nullopt;
    if (!v->is_number())
        bad(where, owner + ": field '" + key + "' must be a number, not " + json_type(*v));
    return v->get<double>();
}

const OrderedJson& req_array(const OrderedJson& obj, const char* key, const std::string& owner,
                             const std::string& where) {
    const OrderedJson* v = member(obj, key);
    if (!v || !v->is_array()) bad(where, owner + ": field '" + key + "' must be a list");
    return *v;
}

void only_keys(const OrderedJson& obj, std::initializer_list<const char*> keys,
               const std::string& owner, const std::string& where) {
    for (const auto& [k, v] : obj.items()) {
        bool known = false;
        for (const char* key : keys) known = known || k == key;
        if (!known) {
            std::string list;
            for (const char* key : keys) list += (list.empty() ? "" : ", ") + std::string(key);
            bad(where, owner + ": unknown field '" + k + "' (expected " + list + ")");
        }
    }
}

SpectralBand band_from(const OrderedJson& j, size_t i, const std::string& where) {
    const std::string owner = "OpticalData: band " + std::to_string(i);
    if (!j.is_object()) bad(where, owner + " must be an object, not " + json_type(j));
    only_keys(j,
              {"name", "index", "common_name", "description", "unit", "center_wavelength",
               "full_width_half_max"},
              owner, where);
    SpectralBand b;
    b.name = req_string(j, "name", owner, where);
    if (const OrderedJson* idx = member(j, "index")) {
        if (!idx->is_number_integer())
            bad(where, owner + ": field 'index' must be an integer, not " + idx->dump());
        b.index = idx->get<int64_t>();
    }
    b.common_name = opt_string(j, "common_name", owner, where);
    b.description = opt_string(j, "description", owner, where);
    b.unit = opt_string(j, "unit", owner, where);
    b.center_wavelength = opt_number(j, "center_wavelength", owner, where);
    b.full_width_half_max = opt_number(j, "full_width_half_max", owner, where);
    return b;
}

OpticalData optical_from(const OrderedJson& j, const std::string& where) {
    only_keys(j, {"sensor", "bands"}, "OpticalData", where);
    auto sensor = opt_string(j, "sensor", "OpticalData", where);
    const OrderedJson* bands = member(j, "bands");
    if (!sensor)
        bad(where, bands ? "OpticalData: a sensor name must be given with bands"
                         : "OpticalData: give a sensor or bands");
    if (!bands) return optical_data(*sensor);
    if (!bands->is_array()) bad(where, "OpticalData: field 'bands' must be a list");
    OpticalData o;
    o.sensor = *sensor;
    for (size_t i = 0; i < bands->size(); ++i) o.bands.push_back(band_from((*bands)[i], i, where));
    return o;
}

Labels labels_from(const OrderedJson& j, const std::string& where) {
    only_keys(j, {"label_classes", "label_description"}, "Labels", where);
    Labels l;
    l.description = opt_string(j, "label_description", "Labels", where);
    const OrderedJson& classes = req_array(j, "label_classes", "Labels", where);
    for (size_t i = 0; i < classes.size(); ++i) {
        const OrderedJson& c = classes[i];
        const std::string owner = "Labels: class " + std::to_string(i);
        if (!c.is_object()) bad(where, owner + " must be an object, not " + json_type(c));
        only_keys(c, {"name", "category", "description"}, owner, where);
        LabelClass lc;
        lc.name = req_string(c, "name", owner, where);
        const OrderedJson* cat = member(c, "category");
        if (!cat) bad(where, owner + " ('" + lc.name + "'): field 'category' is required");
        if (cat->is_number_integer())
            lc.category = std::to_string(cat->get<int64_t>());
        else if (cat->is_string())
            lc.category = cat->get<std::string>();
        else
            bad(where, "LabelClass '" + lc.name + "': category must be an int or a str, not " +
                           cat->dump());
        lc.description = opt_string(c, "description", owner, where);
        l.classes.push_back(std::move(lc));
    }
    return l;
}

Publications publications_from(const OrderedJson& j, const std::string& where) {
    only_keys(j, {"publications"}, "Publications", where);
    Publications p;
    const OrderedJson& list = req_array(j, "publications", "Publications", where);
    for (size_t i = 0; i < list.size(); ++i) {
        const OrderedJson& e = list[i];
        const std::string owner = "Publication " + std::to_string(i);
        if (!e.is_object()) bad(where, owner + " must be an object, not " + json_type(e));
        only_keys(e, {"doi", "citation", "summary"}, owner, where);
        Publication pub;
        pub.doi = opt_string(e, "doi", owner, where).value_or("");
        pub.citation = opt_string(e, "citation", owner, where).value_or("");
        pub.summary = opt_string(e, "summary", owner, where);
        p.publications.push_back(std::move(pub));
    }
    return p;
}

SplitStrategy strategy_from(const OrderedJson& j, const std::string& where) {
    only_keys(j, {"strategy"}, "SplitStrategy", where);
    return {req_string(j, "strategy", "SplitStrategy", where)};
}

}  // namespace

CollectionFields collection_fields(const OpticalData& o) {
    if (o.sensor.empty()) throw SchemaError("OpticalData: the sensor name is empty");
    OrderedJson bands = OrderedJson::array();
    for (const SpectralBand& b : o.bands) {
        if (b.name.empty())
            throw SchemaError("SpectralBand: name must be a non-empty string, not ''");
        OrderedJson band = OrderedJson::object();
        band["name"] = b.name;
        band["index"] = or_null(b.index);
        band["common_name"] = or_null(b.common_name);
        band["description"] = or_null(b.description);
        band["unit"] = or_null(b.unit);
        band["center_wavelength"] = or_null(b.center_wavelength);
        band["full_width_half_max"] = or_null(b.full_width_half_max);
        bands.push_back(std::move(band));
    }
    return {{"optical:sensor", json_text(o.sensor)},
            {"optical:bands", bands.dump()},
            {"optical:num_bands", std::to_string(o.bands.size())}};
}

CollectionFields collection_fields(const Labels& l) {
    std::set<std::string> names, categories;
    OrderedJson classes = OrderedJson::array();
    for (const LabelClass& c : l.classes) {
        if (c.name.empty())
            throw SchemaError("LabelClass: name must be a non-empty string, not ''");
        if (!names.insert(c.name).second)
            throw SchemaError("Labels: two classes share the name " + quoted(c.name));
        if (!categories.insert(c.category).second)
            throw SchemaError("Labels: two classes share the category " + quoted(c.category));
        OrderedJson j = OrderedJson::object();
        j["name"] = c.name;
        j["category"] = c.category;
        j["description"] = or_null(c.description);
        classes.push_back(std::move(j));
    }
    return {{"labels:classes", classes.dump()},
            {"labels:description", or_null(l.description).dump()},
            {"labels:num_classes", std::to_string(l.classes.size())}};
}

CollectionFields collection_fields(const Publications& p) {
    OrderedJson list = OrderedJson::array();
    for (const Publication& e : p.publications) {
        if (e.doi.empty()) throw SchemaError("Publication: doi must be a non-empty string, not ''");
        if (e.citation.empty())
            throw SchemaError("Publication " + quoted(e.doi) +
                              ": citation must be a non-empty string, not ''");
        OrderedJson j = OrderedJson::object();
        j["doi"] = e.doi;
        j["citation"] = e.citation;
        j["summary"] = or_null(e.summary);
        list.push_back(std::move(j));
    }
    return {{"publications", list.dump()}};
}

CollectionFields collection_fields(const SplitStrategy& s) {
    bool known = false;
    std::string list;
    for (const auto& v : strategies()) {
        known = known || v == s.strategy;
        list += (list.empty() ? "" : ", ") + v;
    }
    if (!known) {
        throw SchemaError("SplitStrategy: strategy " + quoted(s.strategy) + " is not one of " +
                          list);
    }
    return {{"split:strategy", json_text(s.strategy)}};
}

CollectionFields collection_fields_from_json(std::string_view extension, std::string_view json,
                                             std::string_view where_view) {
    const std::string where(where_view);
    OrderedJson j;
    try {
        j = OrderedJson::parse(json);
    } catch (const nlohmann::json::parse_error& e) {
        bad(where, std::string(extension) + ": not valid JSON (" + e.what() + ")");
    }
    if (!j.is_object()) {
        bad(where, std::string(extension) + ": expected a JSON object of its arguments, not " +
                       json_type(j));
    }
    try {
        if (extension == "OpticalData") return collection_fields(optical_from(j, where));
        if (extension == "Labels") return collection_fields(labels_from(j, where));
        if (extension == "Publications") return collection_fields(publications_from(j, where));
        if (extension == "SplitStrategy") return collection_fields(strategy_from(j, where));
    } catch (const SchemaError& e) {
        const std::string what = e.what();
        if (where.empty() || what.rfind(where, 0) == 0) throw;
        throw SchemaError(where + ": " + what);
    }
    bad(where, "unknown TACO extension '" + std::string(extension) +
                   "' (known: OpticalData, Labels, Publications, SplitStrategy)");
}

void add_collection_fields(std::vector<std::pair<std::string, std::string>>& extensions,
                           const CollectionFields& fields) {
    for (const auto& [key, text] : fields) {
        bool replaced = false;
        for (auto& [k, t] : extensions) {
            if (k == key) {
                t = text;
                replaced = true;
            }
        }
        if (!replaced) extensions.emplace_back(key, text);
    }
}

}  // namespace taco::ext
