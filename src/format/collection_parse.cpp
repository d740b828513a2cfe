#include "format/collection_parse.hpp"

#include <stdexcept>
#include <unordered_set>
#include <vector>

#include "model/python_json.hpp"
#include "model/shorten.hpp"
#include "model/utf8.hpp"
#include "taco/errors.hpp"

namespace taco::format {
namespace {

struct Reader {
    const OrderedJson& doc;
    const std::string& source;

    [[noreturn]] void bad(const std::string& key, const std::string& expected) const {
        throw FormatError(source + ": key '" + key + "' must be " + expected);
    }
    std::string str(const OrderedJson& v, const std::string& key) const {
        if (!v.is_string()) bad(key, "a string");
        return v.get<std::string>();
    }
    std::optional<std::string> opt_str(const OrderedJson& v, const std::string& key) const {
        if (v.is_null()) return std::nullopt;
        return str(v, key);
    }
    std::vector<std::string> str_list(const OrderedJson& v, const std::string& key) const {
        if (!v.is_array()) bad(key, "a list of strings");
        std::vector<std::string> out;
        for (const auto& e : v) out.push_back(str(e, key + "[]"));
        return out;
    }
    Contact contact(const OrderedJson& v, const std::string& key) const {
        if (!v.is_object()) bad(key, "an object");
        Contact c;
        for (const auto& [k, item] : v.items()) {
            std::string where = key + "." + k;
            if (k == "roles" || k == "url" || k == "links") c.names_provider_keys = true;
            if (k == "name")
                c.name = opt_str(item, where);
            else if (k == "organization")
                c.organization = opt_str(item, where);
            else if (k == "email")
                c.email = opt_str(item, where);
            else if (k == "role")
                c.role = opt_str(item, where);
            else if (k == "url")
                c.url = opt_str(item, where);
            else if (k == "roles") {
                if (!item.is_null()) c.roles = str_list(item, where);
            } else if (k == "links") {
                if (item.is_null()) continue;
                if (!item.is_array()) bad(where, "a list of objects");
                std::vector<std::map<std::string, std::string>> links;
                for (const auto& l : item) {
                    if (!l.is_object()) bad(where, "a list of objects with string values");
                    std::map<std::string, std::string> m;
                    for (const auto& [lk, lv] : l.items()) m[lk] = str(lv, where + "." + lk);
                    links.push_back(std::move(m));
                }
                c.links = std::move(links);
            }
            // Other keys are tolerated: older writers dropped unknown ones the same way.
        }
        return c;
    }
    std::vector<Contact> contacts(const OrderedJson& v, const std::string& key) const {
        if (!v.is_array()) bad(key, "a list of objects");
        std::vector<Contact> out;
        for (size_t i = 0; i < v.size(); ++i)
            out.push_back(contact(v[i], key + "[" + std::to_string(i) + "]"));
        return out;
    }
    Extent extent(const OrderedJson& v) const {
        if (!v.is_object()) bad("extent", "an object with 'spatial' and 'temporal'");
        Extent e;
        if (v.contains("spatial")) {
            const auto& s = v["spatial"];
            if (!s.is_array() || s.size() != 4) bad("extent.spatial", "a list of 4 numbers");
            for (size_t i = 0; i < 4; ++i) {
                if (!s[i].is_number()) bad("extent.spatial", "a list of 4 numbers");
                e.spatial[i] = s[i].get<double>();
            }
        }
        if (v.contains("temporal") && !v["temporal"].is_null()) {
            auto t = str_list(v["temporal"], "extent.temporal");
            if (t.size() != 2) bad("extent.temporal", "a list of 2 ISO-8601 strings or null");
            e.temporal = std::array<std::string, 2>{t[0], t[1]};
        }
        return e;
    }
};

}  // namespace

void check_json_size(uint64_t size, const std::string& source) {
    if (size <= kMaxJsonBytes) return;
    throw FormatError(source + ": the JSON document is " + std::to_string(size) +
                      " bytes, more than the limit of " + std::to_string(kMaxJsonBytes) +
                      " (64 MiB)");
}

OrderedJson parse_json_document(const std::string& text, const std::string& source) {
    check_json_size(text.size(), source);
    // nlohmann's "unexpected end of input" for nothing at all hides the real problem: a zero
    // length in the TACO_HEADER slot, or an empty file.
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
        throw FormatError(source + ": the JSON document is empty (" + std::to_string(text.size()) +
                          " bytes), expected a JSON object");
    }
    // Nesting is bounded before the document is built: serialising or walking a value recurses,
    // and 100,000 nested arrays (200 KB) overflow the stack. Duplicate keys are refused rather
    // than silently keeping one of them.
    std::vector<std::unordered_set<std::string>> keys;
    std::string problem;
    auto check = [&](int depth, nlohmann::json::parse_event_t event, OrderedJson& parsed) {
        using E = nlohmann::json::parse_event_t;
        if (event == E::object_start || event == E::array_start) {
            if (depth >= static_cast<int>(kMaxJsonDepth)) {
                problem = "nested deeper than " + std::to_string(kMaxJsonDepth) +
                          " levels of arrays and objects";
                throw std::length_error(problem);
            }
            if (event == E::object_start) keys.emplace_back();
        } else if (event == E::object_end) {
            if (!keys.empty()) keys.pop_back();
        } else if (event == E::key && !keys.empty()) {
            const std::string& key = parsed.template get_ref<const std::string&>();
            if (!keys.back().insert(key).second) {
                problem = "duplicate key '" + shorten(key) + "'";
                throw std::length_error(problem);
            }
        }
        return true;
    };
    // JSON text is UTF-8 (RFC 8259); other bytes would come back out of every string accessor
    // (and as a UnicodeDecodeError in Python) instead of as this error.
    if (!model::is_valid_utf8(text)) throw FormatError(source + ": not valid UTF-8 text");
    // Python's NaN / Infinity / -Infinity (tacotoolbox writes them for values that are not
    // finite): read as the doubles they are, and written back the same way (dump_python_style).
    std::string marked;
    const bool non_finite =
        (text.find("NaN") != std::string::npos || text.find("Infinity") != std::string::npos) &&
        model::mark_non_finite_tokens(marked = text);
    try {
        OrderedJson doc = OrderedJson::parse(non_finite ? marked : text, check);
        if (non_finite) model::restore_non_finite(doc);
        return doc;
    } catch (const nlohmann::json::exception& e) {  // parse_error, number out_of_range
        throw FormatError(source + ": malformed JSON (" + shorten(e.what()) + ")");
    } catch (const std::length_error&) {
        if (problem.empty()) throw;
        throw FormatError(source + ": malformed JSON (" + problem + ")");
    }
}

CollectionInfo collection_info_from_json(const OrderedJson& doc, const std::string& source,
                                         bool require_core) {
    if (!doc.is_object()) throw FormatError(source + ": expected a JSON object at the top level");
    Reader r{doc, source};
    CollectionInfo info;
    bool version_seen = false;
    for (const auto& [key, v] : doc.items()) {
        if (key == "id")
            info.id = r.str(v, key);
        else if (key == "dataset_version")
            info.dataset_version = r.str(v, key);
        else if (key == "description")
            info.description = r.str(v, key);
        else if (key == "licenses")
            info.licenses = r.str_list(v, key);
        else if (key == "providers")
            info.providers = r.contacts(v, key);
        else if (key == "tasks")
            info.tasks = r.str_list(v, key);
        else if (key == "taco_version") {
            info.taco_version = r.str(v, key);
            version_seen = true;
        } else if (key == "title")
            info.title = r.opt_str(v, key);
        else if (key == "curators") {
            if (!v.is_null()) info.curators = r.contacts(v, key);
        } else if (key == "keywords") {
            if (!v.is_null()) info.keywords = r.str_list(v, key);
        } else if (key == "extent") {
            if (!v.is_null()) info.extent = r.extent(v);
        } else if (key == "taco:pit_schema" || key == "taco:field_schema") {
            continue;
        } else {
            info.extensions.emplace_back(key, dump_compact(v));
        }
    }
    if (require_core) {
        for (const char* k :
             {"id", "dataset_version", "description", "licenses", "providers", "tasks"}) {
            if (!doc.contains(k))
                throw FormatError(source + ": required key '" + std::string(k) + "' is missing");
        }
        if (!version_seen) throw FormatError(source + ": required key 'taco_version' is missing");
    }
    return info;
}

}  // namespace taco::format
