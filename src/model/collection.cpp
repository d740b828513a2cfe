// COLLECTION field validation (FORMAT.md §8.1) and the Taco constructor.
#include "taco/collection.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include <nlohmann/json.hpp>

#include "model/extent.hpp"
#include "model/pit.hpp"
#include "model/python_json.hpp"
#include "model/time_format.hpp"
#include "model/utf8.hpp"
#include "taco/errors.hpp"

namespace taco {
namespace {

[[noreturn]] void bad(const std::string& field, const std::string& why) {
    throw SchemaError("COLLECTION field '" + field + "': " + why);
}

size_t utf8_length(const std::string& s) {
    return static_cast<size_t>(
        std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

// Python: id.islower() and id.replace("_","").replace("-","").isalnum(). Non-ASCII letters count
// as alphanumeric (uncased), like most scripts do in Python.
void validate_collection_id(const std::string& id) {
    bool has_lower = false;
    for (unsigned char c : id) {
        if (c >= 'A' && c <= 'Z')
            bad("id", "'" + id + "' has uppercase letters; expected lowercase");
        if (c >= 'a' && c <= 'z') has_lower = true;
        bool ok = std::isalnum(c) || c == '_' || c == '-' || c >= 0x80;
        if (!ok)
            bad("id", "'" + id + "' has '" + std::string(1, static_cast<char>(c)) +
                          "'; expected lowercase letters, digits, '_' and '-'");
    }
    if (!has_lower) bad("id", "'" + id + "' needs at least one lowercase letter");
}

// "2.0.0", "0.5.0", "2.1", "2.0.0-rc.1", "2.0.0+build": the reference writes "0.5.0".
bool looks_like_version(const std::string& v) {
    size_t i = 0;
    bool digit = false;
    for (; i < v.size() && v[i] != '-' && v[i] != '+'; ++i) {
        if (v[i] >= '0' && v[i] <= '9') {
            digit = true;
        } else if (v[i] == '.' && digit) {
            digit = false;
        } else {
            return false;
        }
    }
    return digit && (i == v.size() || i + 1 < v.size());
}

void validate_contact(const Contact& c, const std::string& where, bool curator) {
    bool classic = c.organization || c.email || c.role;
    if (classic && c.uses_provider_shape()) {
        bad(where,
            "mixes the {name, organization, email, role} and {name, roles, url, links} shapes");
    }
    auto empty = [](const std::optional<std::string>& s) { return !s || s->empty(); };
    if (curator || classic) {
        if (empty(c.name) && empty(c.organization)) bad(where, "needs a name or an organization");
    } else if (empty(c.name)) {
        bad(where, "needs a name");
    }
    if (c.email && c.email->find('@') == std::string::npos) {
        bad(where, "email '" + *c.email + "' has no '@'");
    }
    if (c.url && c.url->rfind("http://", 0) != 0 && c.url->rfind("https://", 0) != 0) {
        bad(where, "url '" + *c.url + "' must start with http:// or https://");
    }
}

void validate_extent(const Extent& e) {
    const auto& s = e.spatial;
    for (double v : s)
        if (!std::isfinite(v)) bad("extent", "spatial values must be finite numbers");
    if (s[0] < -180 || s[0] > 180 || s[2] < -180 || s[2] > 180) {
        bad("extent", "longitudes must lie in [-180, 180]");
    }
    if (s[1] < -90 || s[1] > 90 || s[3] < -90 || s[3] > 90)
        bad("extent", "latitudes must lie in [-90, 90]");
    if (s[1] > s[3]) bad("extent", "south (" + std::to_string(s[1]) + ") is greater than north");
    if (e.temporal) {
        auto start = model::parse_iso_utc((*e.temporal)[0]);
        auto end = model::parse_iso_utc((*e.temporal)[1]);
        if (!start)
            bad("extent", "temporal start '" + (*e.temporal)[0] + "' is not an ISO-8601 date");
        if (!end) bad("extent", "temporal end '" + (*e.temporal)[1] + "' is not an ISO-8601 date");
        if (*start > *end) bad("extent", "temporal start is after its end");
    }
}

const std::vector<std::string> kCoreKeys = {"id",
                                            "dataset_version",
                                            "description",
                                            "licenses",
                                            "providers",
                                            "tasks",
                                            "taco_version",
                                            "title",
                                            "curators",
                                            "keywords",
                                            "extent",
                                            "taco:pit_schema",
                                            "taco:field_schema"};

}  // namespace

const std::vector<std::string>& known_tasks() {
    static const std::vector<std::string> tasks = {"regression",
                                                   "classification",
                                                   "scene-classification",
                                                   "detection",
                                                   "object-detection",
                                                   "segmentation",
                                                   "semantic-segmentation",
                                                   "instance-segmentation",
                                                   "panoptic-segmentation",
                                                   "similarity-search",
                                                   "generative",
                                                   "image-captioning",
                                                   "super-resolution",
                                                   "denoising",
                                                   "inpainting",
                                                   "colorization",
                                                   "style-transfer",
                                                   "deblurring",
                                                   "dehazing",
                                                   "foundation-model",
                                                   "other"};
    return tasks;
}

namespace {

// Every text field ends up in COLLECTION.json, which readers parse as UTF-8.
void validate_text(const CollectionInfo& info) {
    auto check = [](const std::string& field, const std::string& text) {
        if (!model::is_valid_utf8(text)) bad(field, "text is not valid UTF-8");
    };
    auto check_opt = [&](const std::string& field, const std::optional<std::string>& text) {
        if (text) check(field, *text);
    };
    auto check_contacts = [&](const std::string& field, const std::vector<Contact>& list) {
        for (const auto& c : list) {
            for (const auto* s : {&c.name, &c.organization, &c.email, &c.role, &c.url})
                check_opt(field, *s);
            if (c.roles)
                for (const auto& r : *c.roles) check(field, r);
            if (c.links)
                for (const auto& link : *c.links)
                    for (const auto& [k, v] : link) check(field, k), check(field, v);
        }
    };
    check("id", info.id);
    check("dataset_version", info.dataset_version);
    check("description", info.description);
    check("taco_version", info.taco_version);
    for (const auto& l : info.licenses) check("licenses", l);
    for (const auto& t : info.tasks) check("tasks", t);
    check_opt("title", info.title);
    if (info.keywords)
        for (const auto& k : *info.keywords) check("keywords", k);
    check_contacts("providers", info.providers);
    if (info.curators) check_contacts("curators", *info.curators);
    if (info.extent && info.extent->temporal)
        for (const auto& t : *info.extent->temporal) check("extent", t);
    for (const auto& [key, text] : info.extensions) check(key, key), check(key, text);
}

}  // namespace

void validate_collection(const CollectionInfo& info) {
    validate_text(info);
    validate_collection_id(info.id);
    if (info.taco_version.empty()) bad("taco_version", "must not be empty");
    if (!looks_like_version(info.taco_version)) {
        bad("taco_version", "'" + info.taco_version +
                                "' is not a specification version such as \"2.0.0\" (digits "
                                "separated by dots, then an optional -pre-release or +build)");
    }
    for (const auto& t : info.tasks) {
        const auto& known = known_tasks();
        if (std::find(known.begin(), known.end(), t) == known.end()) {
            std::string list;
            for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
            bad("tasks", "unknown task '" + t + "'; expected one of: " + list);
        }
    }
    if (info.title && utf8_length(*info.title) > 250) {
        bad("title",
            "has " + std::to_string(utf8_length(*info.title)) + " characters; at most 250 allowed");
    }
    for (size_t i = 0; i < info.providers.size(); ++i) {
        validate_contact(info.providers[i], "providers[" + std::to_string(i) + "]", false);
    }
    if (info.curators) {
        for (size_t i = 0; i < info.curators->size(); ++i) {
            validate_contact((*info.curators)[i], "curators[" + std::to_string(i) + "]", true);
        }
    }
    if (info.extent) validate_extent(*info.extent);
    for (const auto& [key, json_text] : info.extensions) {
        if (key.empty()) bad("extensions", "a TACO-level extension key is empty");
        if (std::find(kCoreKeys.begin(), kCoreKeys.end(), key) != kCoreKeys.end()) {
            bad(key, "is a core COLLECTION key and cannot be set as an extension");
        }
        // Python's NaN / Infinity are accepted: tacotoolbox writes them (model/python_json.hpp).
        std::string text = json_text;
        model::mark_non_finite_tokens(text);
        if (!nlohmann::json::accept(text))
            bad(key, "extension value is not valid JSON: " + json_text);
    }
}

Taco::Taco(Tortilla root, CollectionInfo info) : root_(std::move(root)), info_(std::move(info)) {
    // Only a moved-from Tortilla is empty: its constructor refuses no samples.
    if (root_.size() == 0) {
        throw SchemaError(
            "Taco: the root Tortilla has no samples (it was moved from); a dataset "
            "holds at least one sample");
    }
    validate_collection(info_);
    model::validate_pit(root_);
    extent_ = info_.extent ? *info_.extent : model::compute_extent(root_);
}

}  // namespace taco
