#include "format/collection_json.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "ext/descriptions.hpp"
#include "format/collection_parse.hpp"
#include "model/utf8.hpp"
#include "taco/errors.hpp"

namespace taco::format {
namespace {

OrderedJson optional_string(const std::optional<std::string>& s) {
    return s ? OrderedJson(*s) : OrderedJson(nullptr);
}

OrderedJson contact_json(const Contact& c) {
    OrderedJson j = OrderedJson::object();
    j["name"] = optional_string(c.name);
    if (c.uses_provider_shape()) {
        j["roles"] = c.roles ? OrderedJson(*c.roles) : OrderedJson(nullptr);
        j["url"] = optional_string(c.url);
        if (c.links) {
            OrderedJson links = OrderedJson::array();
            for (const auto& link : *c.links) {
                OrderedJson l = OrderedJson::object();
                for (const auto& [k, v] : link) l[k] = v;
                links.push_back(std::move(l));
            }
            j["links"] = std::move(links);
        } else {
            j["links"] = nullptr;
        }
    } else {
        j["organization"] = optional_string(c.organization);
        j["email"] = optional_string(c.email);
        j["role"] = optional_string(c.role);
    }
    return j;
}

OrderedJson contacts_json(const std::vector<Contact>& contacts) {
    OrderedJson arr = OrderedJson::array();
    for (const auto& c : contacts) arr.push_back(contact_json(c));
    return arr;
}

// Children of `parent_row` in `level` (rows [child_begin, child_begin + count)).
struct Group {
    int64_t begin = 0;
    size_t count = 0;
    size_t real = 0;  // non-padding children
};

Group group_of(const metadata::LevelRow& parent) {
    Group g;
    g.begin = parent.child_begin;
    g.count = parent.sample->children().size();
    for (const auto& s : parent.sample->children().samples()) g.real += !s.is_padding();
    return g;
}

OrderedJson pattern_json(const std::vector<metadata::LevelRow>& rows, const Group& g, size_t n) {
    OrderedJson types = OrderedJson::array(), ids = OrderedJson::array();
    for (size_t i = 0; i < g.count; ++i) {
        const Sample* s = rows[g.begin + i].sample;
        types.push_back(to_string(s->type()));
        ids.push_back(s->id());
    }
    OrderedJson p = OrderedJson::object();
    p["n"] = n;
    p["type"] = std::move(types);
    p["id"] = std::move(ids);
    return p;
}

// Among `parents` (FOLDER rows of level-1), the group with the most non-padding children; the
// first one wins ties, like the reference.
Group best_group(const std::vector<const metadata::LevelRow*>& parents, size_t& total) {
    Group best;
    bool found = false;
    total = 0;
    for (const auto* p : parents) {
        Group g = group_of(*p);
        total += g.count;
        if (!found || g.real > best.real) {
            best = g;
            found = true;
        }
    }
    return best;
}

}  // namespace

OrderedJson pit_schema_json(const std::vector<metadata::LevelTable>& levels) {
    OrderedJson root = OrderedJson::object();
    const auto& l0 = levels[0].rows;
    root["n"] = l0.size();
    root["type"] = to_string(l0.front().sample->type());
    OrderedJson hierarchy = OrderedJson::object();

    // Level 1: one pattern over all FOLDER roots.
    // Level d >= 2: one pattern per FOLDER id of level d-1's first pattern.
    std::vector<std::string> previous_folder_ids;
    for (size_t d = 1; d < levels.size(); ++d) {
        OrderedJson patterns = OrderedJson::array();
        if (d == 1) {
            std::vector<const metadata::LevelRow*> parents;
            for (const auto& r : l0)
                if (r.sample->is_folder()) parents.push_back(&r);
            size_t total = 0;
            Group g = best_group(parents, total);
            patterns.push_back(pattern_json(levels[1].rows, g, levels[1].rows.size()));
        } else {
            for (const auto& folder_id : previous_folder_ids) {
                std::vector<const metadata::LevelRow*> parents;
                for (const auto& r : levels[d - 1].rows)
                    if (r.sample->is_folder() && r.sample->id() == folder_id) parents.push_back(&r);
                if (parents.empty()) continue;
                size_t total = 0;
                Group g = best_group(parents, total);
                patterns.push_back(pattern_json(levels[d].rows, g, total));
            }
        }
        if (patterns.empty()) break;
        previous_folder_ids.clear();
        const auto& first = patterns[0];
        for (size_t i = 0; i < first["id"].size(); ++i) {
            if (first["type"][i] == "FOLDER") previous_folder_ids.push_back(first["id"][i]);
        }
        hierarchy[std::to_string(d)] = std::move(patterns);
    }
    OrderedJson pit = OrderedJson::object();
    pit["root"] = std::move(root);
    pit["hierarchy"] = std::move(hierarchy);
    return pit;
}

OrderedJson field_schema_json(const std::vector<metadata::LevelTable>& levels,
                              const std::map<std::string, std::string>& descriptions) {
    OrderedJson fs = OrderedJson::object();
    for (size_t d = 0; d < levels.size(); ++d) {
        // The extensions' own descriptions first (CollectionInfo::field_descriptions), then for
        // core and internal columns the reference's texts and for extension columns
        // tacotoolbox's, when the level holds that extension's columns (ext/descriptions.hpp).
        auto entry = [&](const std::string& name, const std::string& type) {
            if (auto given = descriptions.find(name); given != descriptions.end())
                return OrderedJson::array({name, type, given->second});
            const std::string* ext_text = ext::column_description(name, levels[d].schema);
            return OrderedJson::array(
                {name, type, ext_text ? *ext_text : metadata::column_description(name)});
        };
        OrderedJson cols = OrderedJson::array();
        cols.push_back(entry("id", "string"));
        cols.push_back(entry("type", "string"));
        for (const auto& c : levels[d].schema) {
            // tacotoolbox lower-cases the whole type string (FORMAT.md §5.5): `struct<name:
            // string>`, `timestamp[us, tz=utc]`; parts of a collection must agree on it.
            cols.push_back(
                entry(c.name, model::ascii_lower(metadata::stored_type(c.type).arrow_name())));
        }
        cols.push_back(entry("internal:current_id", "int64"));
        cols.push_back(entry("internal:parent_id", "int64"));
        if (d > 0) cols.push_back(entry("internal:relative_path", "string"));
        fs["level" + std::to_string(d)] = std::move(cols);
    }
    return fs;
}

OrderedJson collection_json(const Taco& taco, const std::vector<metadata::LevelTable>& levels) {
    const CollectionInfo& info = taco.info();
    OrderedJson j = OrderedJson::object();
    j["id"] = info.id;
    j["dataset_version"] = info.dataset_version;
    j["description"] = info.description;
    j["licenses"] = info.licenses;
    j["providers"] = contacts_json(info.providers);
    j["tasks"] = info.tasks;
    j["taco_version"] = info.taco_version;
    j["title"] = optional_string(info.title);
    j["curators"] = info.curators ? contacts_json(*info.curators) : OrderedJson(nullptr);
    j["keywords"] = info.keywords ? OrderedJson(*info.keywords) : OrderedJson(nullptr);
    const Extent& e = taco.extent();
    OrderedJson extent = OrderedJson::object();
    extent["spatial"] =
        OrderedJson::array({e.spatial[0], e.spatial[1], e.spatial[2], e.spatial[3]});
    extent["temporal"] = e.temporal ? OrderedJson::array({(*e.temporal)[0], (*e.temporal)[1]})
                                    : OrderedJson(nullptr);
    j["extent"] = std::move(extent);
    for (const auto& [key, text] : info.extensions) {
        j[key] = parse_user_json_document(text, "COLLECTION field '" + key + "'");
    }
    j["taco:pit_schema"] = pit_schema_json(levels);
    j["taco:field_schema"] = field_schema_json(levels, info.field_descriptions);
    return j;
}

namespace {

// Python's repr(float): the shortest digits that round-trip, positional when the decimal exponent
// is in [-4, 16), scientific otherwise ("1e+16", "1.5e-05"), and always a ".0" on whole numbers.
std::string python_float(double v) {
    // json.dumps(allow_nan=True), Python's default and tacotoolbox's.
    if (std::isnan(v)) return "NaN";
    if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
    std::string sci(buf, res.ptr);  // e.g. "-1.2345e+15"
    bool negative = sci[0] == '-';
    size_t e = sci.find('e');
    std::string mantissa = sci.substr(negative ? 1 : 0, e - (negative ? 1 : 0));
    int exponent = std::stoi(sci.substr(e + 1));
    std::string digits;
    for (char c : mantissa)
        if (c != '.') digits += c;
    std::string out = negative ? "-" : "";
    if (exponent < -4 || exponent >= 16) {
        out += digits.substr(0, 1);
        if (digits.size() > 1) out += "." + digits.substr(1);
        char exp[16];
        std::snprintf(exp, sizeof exp, "e%c%02d", exponent < 0 ? '-' : '+',
                      exponent < 0 ? -exponent : exponent);
        return out + exp;
    }
    if (exponent < 0)
        return out + "0." + std::string(static_cast<size_t>(-exponent - 1), '0') + digits;
    size_t int_len = static_cast<size_t>(exponent) + 1;
    if (digits.size() <= int_len)
        return out + digits + std::string(int_len - digits.size(), '0') + ".0";
    return out + digits.substr(0, int_len) + "." + digits.substr(int_len);
}

// indent false: one line, "," and ":" alone between items (nlohmann's dump()).
void write_python_json(const OrderedJson& v, std::string& out, int depth, bool ascii,
                       bool indent = true) {
    auto newline = [&](int d) {
        if (!indent) return;
        out += '\n';
        out.append(static_cast<size_t>(d) * 4, ' ');
    };
    switch (v.type()) {
        case nlohmann::json::value_t::object: {
            if (v.empty()) {
                out += "{}";
                return;
            }
            out += '{';
            bool first = true;
            for (const auto& [key, item] : v.items()) {
                if (!first) out += ',';
                first = false;
                newline(depth + 1);
                out += OrderedJson(key).dump(-1, ' ', ascii, OrderedJson::error_handler_t::strict);
                out += indent ? ": " : ":";
                write_python_json(item, out, depth + 1, ascii, indent);
            }
            newline(depth);
            out += '}';
            return;
        }
        case nlohmann::json::value_t::array: {
            if (v.empty()) {
                out += "[]";
                return;
            }
            out += '[';
            for (size_t i = 0; i < v.size(); ++i) {
                if (i) out += ',';
                newline(depth + 1);
                write_python_json(v[i], out, depth + 1, ascii, indent);
            }
            newline(depth);
            out += ']';
            return;
        }
        case nlohmann::json::value_t::number_float:
            out += python_float(v.get<double>());
            return;
        default:
            out += v.dump(-1, ' ', ascii, OrderedJson::error_handler_t::strict);
            return;
    }
}

}  // namespace

std::string dump_python_style(const OrderedJson& doc, bool ensure_ascii) {
    // Python's json.dump(indent=4, ensure_ascii=False): ",\n" between items, ": " after keys,
    // empty containers inline, raw UTF-8, floats as repr(float), no final newline.
    std::string out;
    write_python_json(doc, out, 0, ensure_ascii);
    return out;
}

std::string dump_compact(const OrderedJson& value) {
    std::string out;
    write_python_json(value, out, 0, false, false);
    return out;
}

}  // namespace taco::format
