#include "collection/tacollection.hpp"

#include <algorithm>

#include "model/extent.hpp"
#include "model/time_format.hpp"
#include "model/utf8.hpp"
#include "taco/errors.hpp"

namespace taco::collection {
namespace {

using format::OrderedJson;

[[noreturn]] void differ(const PartCollection& part, const PartCollection& first,
                         const std::string& what) {
    throw SchemaError("part '" + part.path + "' does not match the first part '" + first.path +
                      "': " + what);
}

const OrderedJson& member(const PartCollection& part, const char* key) {
    if (!part.document.is_object() || !part.document.contains(key)) {
        throw SchemaError("part '" + part.path + "': COLLECTION.json has no '" + key +
                          "', which a collection needs to check its parts agree");
    }
    return part.document.at(key);
}

// taco:field_schema with each [name, type, description]'s type lower-cased. tacotoolbox writes
// them lower-cased; tacocore before 2026-11-29 kept pyarrow's case (`tz=UTC`, struct field
// names), and such a part is the same schema as a tacotoolbox one.
OrderedJson types_lowered(OrderedJson fields) {
    if (!fields.is_object()) return fields;
    for (auto& [level, columns] : fields.items()) {
        if (!columns.is_array()) continue;
        for (auto& column : columns) {
            if (column.is_array() && column.size() > 1 && column[1].is_string())
                column[1] = model::ascii_lower(column[1].get<std::string>());
        }
    }
    return fields;
}

// The first column where two field_schema levels differ, by name: "column 'cloud' is double
// in the first part, string here", or the column one of them lacks.
std::string field_difference(const std::string& level, const OrderedJson& first,
                             const OrderedJson& here) {
    auto by_name = [](const OrderedJson& columns) {
        std::vector<std::pair<std::string, std::string>> out;  // name, type, in order
        if (!columns.is_array()) return out;
        for (const auto& c : columns) {
            if (c.is_array() && c.size() > 1 && c[0].is_string() && c[1].is_string())
                out.emplace_back(c[0].get<std::string>(), c[1].get<std::string>());
        }
        return out;
    };
    const auto a = by_name(first), b = by_name(here);
    auto find = [](const auto& cols, const std::string& name) -> const std::string* {
        for (const auto& [n, t] : cols)
            if (n == name) return &t;
        return nullptr;
    };
    const std::string where = "taco:field_schema " + level + ": ";
    for (const auto& [name, type] : a) {
        const std::string* other = find(b, name);
        if (!other) return where + "column '" + name + "' (" + type + ") is missing here";
        if (*other != type) {
            return where + "column '" + name + "' is " + *other + " here, " + type +
                   " in the first part";
        }
    }
    for (const auto& [name, type] : b)
        if (!find(a, name)) return where + "column '" + name + "' (" + type + ") is extra here";
    return where +
           "the columns are in another order or differ in their descriptions: " + here.dump() +
           " vs " + first.dump();
}

void check_compatible(const PartCollection& first, const PartCollection& part) {
    const OrderedJson& a = member(first, "taco:pit_schema");
    const OrderedJson& b = member(part, "taco:pit_schema");
    const OrderedJson ra = a.value("root", OrderedJson::object()).value("type", OrderedJson());
    const OrderedJson rb = b.value("root", OrderedJson::object()).value("type", OrderedJson());
    if (ra != rb)
        differ(part, first, "taco:pit_schema root type " + rb.dump() + " vs " + ra.dump());
    const OrderedJson ha = a.value("hierarchy", OrderedJson::object());
    const OrderedJson hb = b.value("hierarchy", OrderedJson::object());
    std::vector<std::string> ka, kb;
    for (const auto& [k, v] : ha.items()) ka.push_back(k);
    for (const auto& [k, v] : hb.items()) kb.push_back(k);
    if (ka != kb) {
        differ(part, first,
               "taco:pit_schema has " + std::to_string(kb.size()) + " hierarchy levels vs " +
                   std::to_string(ka.size()));
    }
    for (const std::string& level : ka) {
        const OrderedJson& pa = ha.at(level);
        const OrderedJson& pb = hb.at(level);
        if (!pa.is_array() || !pb.is_array() || pa.size() != pb.size()) {
            differ(part, first,
                   "taco:pit_schema level " + level + " has " + std::to_string(pb.size()) +
                       " patterns vs " + std::to_string(pa.size()));
        }
        for (size_t i = 0; i < pa.size(); ++i) {
            for (const char* key : {"type", "id"}) {
                if (pa[i].value(key, OrderedJson()) != pb[i].value(key, OrderedJson())) {
                    differ(part, first,
                           "taco:pit_schema level " + level + " pattern " + std::to_string(i) +
                               " " + key + " " + pb[i].value(key, OrderedJson()).dump() + " vs " +
                               pa[i].value(key, OrderedJson()).dump());
                }
            }
        }
    }
    const OrderedJson fa = types_lowered(member(first, "taco:field_schema"));
    const OrderedJson fb = types_lowered(member(part, "taco:field_schema"));
    if (fa == fb) return;
    for (const auto& [level, fields] : fa.items()) {
        if (!fb.contains(level)) differ(part, first, "taco:field_schema has no " + level);
        if (fields != fb.at(level))
            differ(part, first, field_difference(level, fields, fb.at(level)));
    }
    differ(part, first, "taco:field_schema has extra levels");
}

std::optional<std::array<double, 4>> bbox_of(const OrderedJson& doc) {
    if (!doc.contains("extent") || !doc["extent"].is_object()) return std::nullopt;
    const OrderedJson& s = doc["extent"].value("spatial", OrderedJson());
    if (!s.is_array() || s.size() != 4) return std::nullopt;
    std::array<double, 4> out{};
    for (size_t i = 0; i < 4; ++i) {
        if (!s[i].is_number()) return std::nullopt;
        out[i] = s[i].get<double>();
    }
    return out;
}

}  // namespace

OrderedJson merge_collections(const std::vector<PartCollection>& parts) {
    if (parts.empty()) throw SchemaError("a collection needs at least one part");
    const PartCollection& first = parts.front();
    for (const PartCollection& p : parts) check_compatible(first, p);

    OrderedJson out = first.document;
    OrderedJson& pit = out["taco:pit_schema"];
    int64_t root_n = 0;
    for (const PartCollection& p : parts)
        root_n += p.document["taco:pit_schema"]["root"].value("n", int64_t{0});
    pit["root"]["n"] = root_n;
    if (pit.contains("hierarchy")) {
        for (auto& [level, patterns] : pit["hierarchy"].items()) {
            for (size_t i = 0; i < patterns.size(); ++i) {
                int64_t n = 0;
                for (const PartCollection& p : parts)
                    n +=
                        p.document["taco:pit_schema"]["hierarchy"][level][i].value("n", int64_t{0});
                patterns[i]["n"] = n;
            }
        }
    }

    // The parts' boxes by create's arc rule: a part across the antimeridian (west > east) is
    // covered, where a min/max of the edges would keep only the span between them.
    model::PlaceBounds place;
    std::optional<std::pair<int64_t, int64_t>> span;
    for (const PartCollection& p : parts) {
        if (const auto b = bbox_of(p.document)) place.add_box(*b);
        const OrderedJson& extent = p.document.value("extent", OrderedJson());
        const OrderedJson t =
            extent.is_object() ? extent.value("temporal", OrderedJson()) : OrderedJson();
        if (t.is_array() && t.size() == 2 && t[0].is_string() && t[1].is_string()) {
            const auto start = model::parse_iso_utc(t[0].get<std::string>());
            const auto end = model::parse_iso_utc(t[1].get<std::string>());
            if (!start || !end) {
                throw SchemaError("part '" + p.path + "': extent.temporal " + t.dump() +
                                  " is not a pair of ISO 8601 dates");
            }
            if (!span) span = std::make_pair(*start, *end);
            span->first = std::min(span->first, *start);
            span->second = std::max(span->second, *end);
        }
    }
    OrderedJson extent = OrderedJson::object();
    const std::array<double, 4> global =
        place.bounds().value_or(std::array<double, 4>{-180, -90, 180, 90});
    extent["spatial"] = OrderedJson::array({global[0], global[1], global[2], global[3]});
    extent["temporal"] = span ? OrderedJson::array({model::format_iso_utc(span->first),
                                                    model::format_iso_utc(span->second)})
                              : OrderedJson();
    out["extent"] = extent;

    OrderedJson sources = OrderedJson::object();
    sources["count"] = parts.size();
    OrderedJson ids = OrderedJson::array(), files = OrderedJson::array(),
                extents = OrderedJson::array();
    for (const PartCollection& p : parts) {
        ids.push_back(p.document.value("id", std::string("unknown")));
        files.push_back(p.file);
        OrderedJson e = OrderedJson::object();
        e["file"] = p.file;
        e["id"] = p.document.value("id", std::string("unknown"));
        const OrderedJson& pe = p.document.value("extent", OrderedJson());
        if (pe.is_object()) {
            const OrderedJson s = pe.value("spatial", OrderedJson());
            if (!s.is_null() && !(s.is_array() && s.empty())) e["spatial"] = s;
            const OrderedJson t = pe.value("temporal", OrderedJson());
            if (!t.is_null() && !(t.is_array() && t.empty())) e["temporal"] = t;
        }
        extents.push_back(std::move(e));
    }
    sources["ids"] = std::move(ids);
    sources["files"] = std::move(files);
    sources["extents"] = std::move(extents);
    out.erase("taco:sources");
    out["taco:sources"] = std::move(sources);
    return out;
}

}  // namespace taco::collection
