// Dataset cards: the facts are gathered once (CardFacts), then written as Markdown or HTML.
#include "taco/card.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>

#include <nlohmann/json.hpp>

#include "convert/dataset_access.hpp"
#include "model/join.hpp"
#include "taco/errors.hpp"

namespace taco {
namespace {

using Json = nlohmann::ordered_json;

struct Field {
    std::string name, type, description;
};
struct Level {
    std::string key;
    std::vector<Field> fields;
};
struct PitLine {
    size_t depth;
    std::string text;
};

struct CardFacts {
    std::string title, id, version, description, taco_version, container, example;
    std::vector<std::string> licenses, keywords, tasks;
    std::vector<std::pair<std::string, std::string>> providers;  // name, details
    std::vector<std::pair<std::string, std::string>> curators;
    std::optional<std::array<double, 4>> bbox;
    std::optional<std::array<std::string, 2>> period;
    uint64_t samples = 0;
    std::vector<std::pair<std::string, uint64_t>> splits;  // value -> samples
    std::vector<PitLine> pit;
    std::vector<Level> levels;
};

std::string json_text(const Json& v) {
    if (v.is_null()) return "";
    if (v.is_string()) return v.get<std::string>();
    return v.dump();
}

std::string details_of(const Json& p) {
    std::vector<std::string> parts;
    for (const char* key : {"organization", "role", "roles", "email", "url"}) {
        if (!p.contains(key) || p[key].is_null()) continue;
        if (p[key].is_array()) {
            std::vector<std::string> items;
            for (const auto& x : p[key]) items.push_back(json_text(x));
            if (!items.empty()) parts.push_back(join_text(items));
        } else {
            parts.push_back(json_text(p[key]));
        }
    }
    return join_text(parts, "; ");
}

CardFacts gather(const Dataset& ds, const CardOptions& options) {
    CardFacts f;
    const Json doc = Json::parse(ds.collection_json());
    f.id = ds.id();
    f.title = ds.title() ? *ds.title() : ds.id();
    f.version = ds.version();
    f.description = ds.description();
    f.taco_version = ds.taco_version();
    f.container = convert::DatasetAccess::legacy_v1(ds)
                      ? "legacy v1 file (read-only; migrate to TACO 2.0)"
                      : to_string(ds.format());
    f.example =
        options.dataset_example_path.empty() ? ds.path().string() : options.dataset_example_path;
    f.licenses = ds.licenses();
    f.tasks = ds.tasks();
    if (ds.keywords()) f.keywords = *ds.keywords();
    for (const char* key : {"providers", "curators"}) {
        if (!doc.contains(key) || !doc[key].is_array()) continue;
        auto& out = std::string(key) == "providers" ? f.providers : f.curators;
        for (const auto& p : doc[key])
            if (p.is_object()) out.emplace_back(json_text(p.value("name", Json())), details_of(p));
    }
    if (ds.extent()) {
        f.bbox = ds.extent()->spatial;
        f.period = ds.extent()->temporal;
    }
    f.samples = ds.count();
    bool has_split = false;
    for (const ColumnType& c : ds.columns())
        if (c.name == "split" && c.type.id() == TypeId::String) has_split = true;
    if (has_split) {
        const DataFrame t = ds.sql(
                                  "SELECT coalesce(split, '(none)') AS s, count(*) AS n FROM data "
                                  "GROUP BY 1 ORDER BY 1")
                                .data_raw();
        for (size_t r = 0; r < t.rows(); ++r)
            f.splits.emplace_back(t.get_string(r, 0), static_cast<uint64_t>(t.get_int(r, 1)));
    }
    const PitSchema& pit = ds.pit_schema();
    f.pit.push_back(
        {0, "level 0: " + std::to_string(pit.root_n) + " " + pit.root_type + " samples"});
    for (size_t d = 0; d < pit.hierarchy.size(); ++d) {
        for (size_t k = 0; k < pit.hierarchy[d].size(); ++k) {
            const PitPattern& p = pit.hierarchy[d][k];
            std::vector<std::string> kids;
            for (size_t i = 0; i < p.ids.size(); ++i)
                kids.push_back(p.ids[i] + " (" + (i < p.types.size() ? p.types[i] : "?") + ")");
            f.pit.push_back(
                {d + 1, "level " + std::to_string(d + 1) +
                            (pit.hierarchy[d].size() > 1 ? " pattern " + std::to_string(k + 1)
                                                         : std::string()) +
                            ": " + std::to_string(p.n) + " rows, children " + join_text(kids)});
        }
    }
    for (const LevelFields& lf : ds.field_schema()) {
        Level l{lf.level, {}};
        for (const FieldInfo& fi : lf.fields)
            l.fields.push_back({fi.name, fi.type, fi.description});
        f.levels.push_back(std::move(l));
    }
    return f;
}

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

std::string html_escape(const std::string& s) {
    std::string out;
    for (char c : s) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            case '\'':
                out += "&#39;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

std::string md_cell(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '|')
            out += "\\|";
        else if (c == '\n')
            out += ' ';
        else
            out += c;
    }
    return out;
}

// An equirectangular world (360 x 180 units) with a 30-degree graticule and the extent's box;
// a box across the antimeridian (west > east) is drawn as its two halves.
std::string extent_svg(const std::array<double, 4>& b) {
    std::ostringstream s;
    s << "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 360 180\" width=\"540\" "
         "height=\"270\" role=\"img\" aria-label=\"spatial extent\">"
      << "<rect x=\"0\" y=\"0\" width=\"360\" height=\"180\" fill=\"#eef4fb\" stroke=\"#999\"/>";
    for (int lon = 30; lon < 360; lon += 30)
        s << "<line x1=\"" << lon << "\" y1=\"0\" x2=\"" << lon
          << "\" y2=\"180\" stroke=\"#ccd\" stroke-width=\"0.5\"/>";
    for (int lat = 30; lat < 180; lat += 30)
        s << "<line x1=\"0\" y1=\"" << lat << "\" x2=\"360\" y2=\"" << lat
          << "\" stroke=\"#ccd\" stroke-width=\"0.5\"/>";
    auto box = [&](double w, double e) {
        const double x = w + 180, y = 90 - b[3];
        const double width = std::max(e - w, 0.8), height = std::max(b[3] - b[1], 0.8);
        s << "<rect class=\"extent\" x=\"" << num(x) << "\" y=\"" << num(y) << "\" width=\""
          << num(width) << "\" height=\"" << num(height)
          << "\" fill=\"#4CAF50\" fill-opacity=\"0.35\" stroke=\"#2e7d32\" stroke-width=\"1\"/>";
    };
    if (b[0] <= b[2]) {
        box(b[0], b[2]);
    } else {
        box(b[0], 180);
        box(-180, b[2]);
    }
    s << "</svg>";
    return s.str();
}

std::string python_snippet(const CardFacts& f) {
    return "import tacocore  # or: import tacoreader\n\nds = tacocore.load(\"" + f.example +
           "\")\nprint(ds.data)\nsample = ds.read(0)\n";
}

std::string cli_snippet(const CardFacts& f) {
    return "taco info " + f.example + "\ntaco sql " + f.example +
           " \"SELECT * FROM data LIMIT 5\"\n";
}

std::string markdown(const CardFacts& f) {
    std::ostringstream o;
    o << "# " << f.title << "\n\n";
    if (!f.description.empty()) o << f.description << "\n\n";
    o << "## Dataset information\n\n| | |\n|---|---|\n"
      << "| id | `" << md_cell(f.id) << "` |\n| version | " << md_cell(f.version) << " |\n"
      << "| licenses | " << md_cell(join_text(f.licenses)) << " |\n"
      << "| tasks | " << md_cell(join_text(f.tasks)) << " |\n";
    if (!f.keywords.empty()) o << "| keywords | " << md_cell(join_text(f.keywords)) << " |\n";
    o << "| container | " << f.container << " |\n| TACO version | " << md_cell(f.taco_version)
      << " |\n| samples | " << f.samples << " |\n\n";
    if (!f.splits.empty()) {
        o << "### Samples per split\n\n| split | samples |\n|---|---:|\n";
        for (const auto& [s, n] : f.splits) o << "| " << md_cell(s) << " | " << n << " |\n";
        o << "\n";
    }
    o << "## Extent\n\n";
    if (f.bbox) {
        const auto& b = *f.bbox;
        o << "- spatial (W, S, E, N): " << num(b[0]) << ", " << num(b[1]) << ", " << num(b[2])
          << ", " << num(b[3]) << "\n";
    }
    o << "- temporal: " << (f.period ? (*f.period)[0] + " to " + (*f.period)[1] : "not given")
      << "\n\n";
    if (f.bbox) o << extent_svg(*f.bbox) << "\n\n";
    o << "## Structure\n\n";
    for (const PitLine& l : f.pit) o << std::string(2 * l.depth, ' ') << "- " << l.text << "\n";
    o << "\n## Fields\n\n";
    for (const Level& l : f.levels) {
        o << "### " << l.key << "\n\n| name | type | description |\n|---|---|---|\n";
        for (const Field& x : l.fields)
            o << "| `" << md_cell(x.name) << "` | " << md_cell(x.type) << " | "
              << md_cell(x.description) << " |\n";
        o << "\n";
    }
    o << "## Usage\n\nPython:\n\n```python\n"
      << python_snippet(f) << "```\n\nCommand line:\n\n"
      << "```sh\n"
      << cli_snippet(f) << "```\n";
    for (const auto* group : {&f.providers, &f.curators}) {
        if (group->empty()) continue;
        o << "\n## " << (group == &f.providers ? "Providers" : "Curators") << "\n\n";
        for (const auto& [name, details] : *group)
            o << "- " << name << (details.empty() ? "" : " (" + details + ")") << "\n";
    }
    return o.str();
}

std::string html(const CardFacts& f) {
    std::ostringstream o;
    auto e = html_escape;
    o << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
      << "<title>" << e(f.title) << "</title><style>"
      << "body{font-family:sans-serif;max-width:960px;margin:2em auto;padding:0 1em;color:#222}"
      << "h1{color:#2e7d32}table{border-collapse:collapse;margin:1em 0}"
      << "td,th{border:1px solid #ccc;padding:4px 8px;text-align:left}"
      << "th{background:#e8f5e9}pre{background:#f6f8fa;padding:1em;overflow:auto}"
      << "</style></head><body>\n"
      << "<h1 id=\"title\">" << e(f.title) << "</h1>\n";
    if (!f.description.empty()) o << "<p id=\"description\">" << e(f.description) << "</p>\n";
    o << "<h2>Dataset information</h2><table id=\"info\">"
      << "<tr><th>id</th><td>" << e(f.id) << "</td></tr>"
      << "<tr><th>version</th><td>" << e(f.version) << "</td></tr>"
      << "<tr><th>licenses</th><td>" << e(join_text(f.licenses)) << "</td></tr>"
      << "<tr><th>tasks</th><td>" << e(join_text(f.tasks)) << "</td></tr>";
    if (!f.keywords.empty())
        o << "<tr><th>keywords</th><td>" << e(join_text(f.keywords)) << "</td></tr>";
    o << "<tr><th>container</th><td>" << e(f.container) << "</td></tr>"
      << "<tr><th>TACO version</th><td>" << e(f.taco_version) << "</td></tr>"
      << "<tr><th>samples</th><td id=\"samples\">" << f.samples << "</td></tr></table>\n";
    if (!f.splits.empty()) {
        o << "<h3>Samples per split</h3><table "
             "id=\"splits\"><tr><th>split</th><th>samples</th></tr>";
        for (const auto& [s, n] : f.splits)
            o << "<tr><td>" << e(s) << "</td><td>" << n << "</td></tr>";
        o << "</table>\n";
    }
    o << "<h2>Extent</h2><ul>";
    if (f.bbox) {
        const auto& b = *f.bbox;
        o << "<li>spatial (W, S, E, N): " << num(b[0]) << ", " << num(b[1]) << ", " << num(b[2])
          << ", " << num(b[3]) << "</li>";
    }
    o << "<li>temporal: " << e(f.period ? (*f.period)[0] + " to " + (*f.period)[1] : "not given")
      << "</li></ul>\n";
    if (f.bbox) o << "<figure id=\"map\">" << extent_svg(*f.bbox) << "</figure>\n";
    o << "<h2>Structure</h2><ul id=\"pit\">";
    for (const PitLine& l : f.pit)
        o << "<li style=\"margin-left:" << 1.5 * static_cast<double>(l.depth) << "em\">"
          << e(l.text) << "</li>";
    o << "</ul>\n<h2>Fields</h2>\n";
    for (const Level& l : f.levels) {
        o << "<h3>" << e(l.key) << "</h3><table class=\"fields\"><tr><th>name</th><th>type</th>"
          << "<th>description</th></tr>";
        for (const Field& x : l.fields)
            o << "<tr><td><code>" << e(x.name) << "</code></td><td>" << e(x.type) << "</td><td>"
              << e(x.description) << "</td></tr>";
        o << "</table>\n";
    }
    o << "<h2>Usage</h2><p>Python:</p><pre><code>" << e(python_snippet(f))
      << "</code></pre><p>Command line:</p><pre><code>" << e(cli_snippet(f)) << "</code></pre>\n";
    for (const auto* group : {&f.providers, &f.curators}) {
        if (group->empty()) continue;
        o << "<h2>" << (group == &f.providers ? "Providers" : "Curators") << "</h2><ul>";
        for (const auto& [name, details] : *group)
            o << "<li>" << e(name) << (details.empty() ? "" : " (" + e(details) + ")") << "</li>";
        o << "</ul>\n";
    }
    o << "</body></html>\n";
    return o.str();
}

}  // namespace

CardFormat parse_card_format(const std::string& name) {
    if (name == "md" || name == "markdown") return CardFormat::Markdown;
    if (name == "html") return CardFormat::Html;
    throw QueryError("card format must be 'md' or 'html', not '" + name + "'");
}

std::string dataset_card(const Dataset& dataset, CardFormat format, const CardOptions& options) {
    convert::DatasetAccess::check_open(dataset, "dataset_card()");
    const CardFacts facts = gather(dataset, options);
    return format == CardFormat::Html ? html(facts) : markdown(facts);
}

}  // namespace taco
