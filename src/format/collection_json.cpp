#include "format/collection_json.hpp"

#include <algorithm>

#include "taco/errors.hpp"

namespace taco::format {
namespace {

OrderedJson optional_string(const std::optional<std::string>& s) { return s ? OrderedJson(*s) : OrderedJson(nullptr); }

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

Group group_of(const std::vector<metadata::LevelTable>& levels, size_t level, const metadata::LevelRow& parent) {
    Group g;
    g.begin = parent.child_begin;
    g.count = parent.sample->children().size();
    for (const auto& s : parent.sample->children().samples()) g.real += !s.is_padding();
    (void)levels;
    (void)level;
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
Group best_group(const std::vector<metadata::LevelTable>& levels, size_t level,
                 const std::vector<const metadata::LevelRow*>& parents, size_t& total) {
    Group best;
    bool found = false;
    total = 0;
    for (const auto* p : parents) {
        Group g = group_of(levels, level, *p);
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
            Group g = best_group(levels, d, parents, total);
            patterns.push_back(pattern_json(levels[1].rows, g, levels[1].rows.size()));
        } else {
            for (const auto& folder_id : previous_folder_ids) {
                std::vector<const metadata::LevelRow*> parents;
                for (const auto& r : levels[d - 1].rows)
                    if (r.sample->is_folder() && r.sample->id() == folder_id) parents.push_back(&r);
                if (parents.empty()) continue;
                size_t total = 0;
                Group g = best_group(levels, d, parents, total);
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

OrderedJson field_schema_json(const std::vector<metadata::LevelTable>& levels) {
    OrderedJson fs = OrderedJson::object();
    auto entry = [](const std::string& name, const std::string& type) {
        return OrderedJson::array({name, type, metadata::column_description(name)});
    };
    for (size_t d = 0; d < levels.size(); ++d) {
        OrderedJson cols = OrderedJson::array();
        cols.push_back(entry("id", "string"));
        cols.push_back(entry("type", "string"));
        for (const auto& c : levels[d].schema) {
            DataType t = c.type.is_complete() ? c.type : DataType::string();
            cols.push_back(entry(c.name, t.arrow_name()));
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
    extent["spatial"] = OrderedJson::array({e.spatial[0], e.spatial[1], e.spatial[2], e.spatial[3]});
    extent["temporal"] = e.temporal ? OrderedJson::array({(*e.temporal)[0], (*e.temporal)[1]}) : OrderedJson(nullptr);
    j["extent"] = std::move(extent);
    for (const auto& [key, text] : info.extensions) j[key] = OrderedJson::parse(text);
    j["taco:pit_schema"] = pit_schema_json(levels);
    j["taco:field_schema"] = field_schema_json(levels);
    return j;
}

std::string dump_python_style(const OrderedJson& doc) {
    // nlohmann's indented output matches Python's json.dump(indent=4) (", " -> ",\n", ": "),
    // including empty containers printed as [] / {}; ensure_ascii=False keeps UTF-8 raw.
    return doc.dump(4, ' ', false, OrderedJson::error_handler_t::strict);
}

}  // namespace taco::format
