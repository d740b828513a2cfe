#include "format/collection_schema.hpp"

#include <cctype>
#include <cstdint>

#include "format/collection_parse.hpp"
#include "model/decimal.hpp"
#include "taco/errors.hpp"

namespace taco::format {
namespace {

[[noreturn]] void schema_error(const std::string& source, const std::string& what) {
    throw SchemaError(source + ": invalid taco:pit_schema: " + what);
}

bool is_sample_type(const OrderedJson& v) {
    return v.is_string() && (v.get<std::string>() == "FILE" || v.get<std::string>() == "FOLDER");
}

uint64_t count_of(const OrderedJson& v, const std::string& source, const std::string& where) {
    // nlohmann parses every non-negative integer as unsigned.
    if (!v.is_number_unsigned()) {
        schema_error(source, where + ".n must be a non-negative integer, got " + v.dump());
    }
    return v.get<uint64_t>();
}

std::vector<std::string> string_array(const OrderedJson& v, const std::string& source,
                                      const std::string& where) {
    if (!v.is_array() || v.empty()) schema_error(source, where + " must be a non-empty list");
    std::vector<std::string> out;
    for (const auto& e : v) {
        if (!e.is_string()) schema_error(source, where + " must hold strings, got " + e.dump());
        out.push_back(e.get<std::string>());
    }
    return out;
}

}  // namespace

PitSchema parse_pit_schema(const OrderedJson& pit, const std::string& source) {
    if (!pit.is_object()) schema_error(source, "expected an object with 'root' and 'hierarchy'");
    if (!pit.contains("root") || !pit["root"].is_object())
        schema_error(source, "'root' object is missing");
    const auto& root = pit["root"];
    PitSchema out;
    if (!root.contains("type") || !is_sample_type(root["type"])) {
        schema_error(source,
                     "root.type must be \"FILE\" or \"FOLDER\", got " +
                         (root.contains("type") ? root["type"].dump() : std::string("nothing")));
    }
    out.root_type = root["type"].get<std::string>();
    if (root.contains("n")) out.root_n = count_of(root["n"], source, "root");

    if (!pit.contains("hierarchy") || pit["hierarchy"].is_null()) return out;
    const auto& hierarchy = pit["hierarchy"];
    if (!hierarchy.is_object())
        schema_error(source, "'hierarchy' must be an object keyed by depth");
    for (const auto& [key, patterns] : hierarchy.items()) {
        if (key.empty() || key.find_first_not_of("0123456789") != std::string::npos) {
            schema_error(source, "hierarchy key '" + key + "' is not a depth number");
        }
        // Depths go to 64: a key beyond any integer is out of range like any other.
        const uint64_t depth = parse_decimal(key).value_or(UINT64_MAX);
        if (depth == 0 || depth > 64)
            schema_error(source, "hierarchy depth " + key + " is out of range");
        if (!patterns.is_array())
            schema_error(source, "hierarchy['" + key + "'] must be a list of patterns");
        if (out.hierarchy.size() < depth) out.hierarchy.resize(depth);
        for (size_t i = 0; i < patterns.size(); ++i) {
            const std::string where = "hierarchy['" + key + "'][" + std::to_string(i) + "]";
            const auto& p = patterns[i];
            if (!p.is_object()) schema_error(source, where + " must be an object");
            if (!p.contains("type")) schema_error(source, where + " has no 'type'");
            if (!p.contains("id")) schema_error(source, where + " has no 'id'");
            PitPattern pattern;
            pattern.types = string_array(p["type"], source, where + ".type");
            pattern.ids = string_array(p["id"], source, where + ".id");
            if (pattern.types.size() != pattern.ids.size()) {
                schema_error(source, where + " has " + std::to_string(pattern.types.size()) +
                                         " types but " + std::to_string(pattern.ids.size()) +
                                         " ids");
            }
            for (const auto& t : pattern.types) {
                if (t != "FILE" && t != "FOLDER") {
                    schema_error(source,
                                 where + ".type holds '" + t + "', expected FILE or FOLDER");
                }
            }
            if (p.contains("n")) pattern.n = count_of(p["n"], source, where);
            out.hierarchy[depth - 1].push_back(std::move(pattern));
        }
    }
    for (size_t d = 0; d < out.hierarchy.size(); ++d) {
        if (out.hierarchy[d].empty()) {
            schema_error(source, "hierarchy has no patterns for depth " + std::to_string(d + 1) +
                                     " although deeper ones exist");
        }
    }
    return out;
}

std::vector<LevelFields> parse_field_schema(const OrderedJson& fields, const std::string& source) {
    auto bad = [&](const std::string& what) {
        throw FormatError(source + ": invalid taco:field_schema: " + what);
    };
    if (!fields.is_object()) bad("expected an object keyed by level (\"level0\", ...)");
    std::vector<LevelFields> out;
    for (const auto& [level, columns] : fields.items()) {
        if (!columns.is_array()) bad("'" + level + "' must be a list of [name, type, description]");
        LevelFields lf{level, {}};
        for (const auto& c : columns) {
            if (!c.is_array() || c.size() < 2 || !c[0].is_string() || !c[1].is_string()) {
                bad("'" + level + "' holds " + c.dump() + ", expected [name, type, description]");
            }
            FieldInfo f{c[0].get<std::string>(), c[1].get<std::string>(), ""};
            if (c.size() > 2 && c[2].is_string()) f.description = c[2].get<std::string>();
            lf.fields.push_back(std::move(f));
        }
        out.push_back(std::move(lf));
    }
    return out;
}

CollectionDocument read_collection_document(std::string text, const std::string& source) {
    CollectionDocument doc;
    OrderedJson json = parse_json_document(text, source);
    if (!json.is_object()) throw FormatError(source + ": expected a JSON object at the top level");
    if (!json.contains("id")) throw FormatError(source + ": required key 'id' is missing");
    if (!json.contains("taco:pit_schema")) {
        throw FormatError(source +
                          ": required key 'taco:pit_schema' is missing (it describes the " +
                          "sample tree; every TACO 2 writer puts it there)");
    }
    doc.info = collection_info_from_json(json, source, false);
    doc.pit = parse_pit_schema(json["taco:pit_schema"], source);
    if (json.contains("taco:field_schema") && !json["taco:field_schema"].is_null()) {
        doc.fields = parse_field_schema(json["taco:field_schema"], source);
    }
    // The reference reports a collection without dataset_version as version "unknown".
    if (!json.contains("dataset_version")) doc.info.dataset_version = "unknown";
    if (!json.contains("taco_version")) doc.info.taco_version.clear();
    doc.text = std::move(text);
    return doc;
}

}  // namespace taco::format
