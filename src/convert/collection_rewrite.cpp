#include "convert/collection_rewrite.hpp"

#include <chrono>
#include <ctime>

#include "format/collection_parse.hpp"
#include "metadata/result_table.hpp"
#include "model/extent.hpp"
#include "model/time_format.hpp"
#include "taco/errors.hpp"

namespace taco::convert {
namespace {

using format::OrderedJson;
using metadata::quote_identifier;

// The extent of the kept rows, by compute_extent's rule (src/model/extent.cpp, which this shares
// the column choice and the place accumulation with): the first level with STAC, else ISTAC,
// place and time_start columns; an ISTAC geometry counts by its own footprint (carried to
// EPSG:4326), a row without one by its centroid. nullopt when no level has them, so the source's
// stays.
std::optional<OrderedJson> kept_extent(const ExportTree& tree, ExportTables& tables,
                                       metadata::DuckSession& db) {
    for (size_t d = 0; d < tree.levels.size(); ++d) {
        const model::ExtentColumns cols = model::extent_columns(tables.source_columns(d));
        if (cols.prefix.empty()) continue;
        const std::string& table = tables.staged_table(d);
        OrderedJson extent = OrderedJson::object();
        auto places = metadata::ResultTable::fetch(
            db,
            "SELECT " +
                (cols.has_centroid ? quote_identifier(cols.prefix + "centroid") : "NULL::BLOB") +
                (cols.by_geometry ? ", \"istac:crs\", \"istac:geometry\"" : "") + " FROM " + table);
        auto cell = [&](size_t r, size_t c) -> std::optional<std::string_view> {
            if (places->is_null(r, c)) return std::nullopt;
            return places->get_string(r, c);
        };
        model::PlaceBounds place;
        for (size_t r = 0; r < places->rows(); ++r) {
            if (cols.by_geometry)
                place.add(cell(r, 1), cell(r, 2), cell(r, 0));
            else
                place.add(std::nullopt, std::nullopt, cell(r, 0));
        }
        const std::array<double, 4> box =
            place.bounds().value_or(std::array<double, 4>{-180.0, -90.0, 180.0, 90.0});
        extent["spatial"] = OrderedJson::array({box[0], box[1], box[2], box[3]});
        extent["temporal"] = nullptr;
        // compute_extent's rule: each row covers [time_start, time_end] (middle or the other end
        // standing in for a null), the range holds them all.
        const auto& times = cols.time_columns;
        if (!times.empty()) {
            auto quoted = [&](size_t i) { return quote_identifier(times[i]); };
            std::string first = times.size() == 1 ? quoted(0) : "coalesce(", last = first;
            if (times.size() > 1) {
                for (size_t i = 0; i < times.size(); ++i) {
                    first += (i ? ", " : "") + quoted(i);
                    last += (i ? ", " : "") + quoted(times.size() - 1 - i);
                }
                first += ")";
                last += ")";
            }
            auto range = metadata::ResultTable::fetch(
                db,
                "SELECT epoch_us(min(" + first + ")), epoch_us(max(" + last + ")) FROM " + table);
            if (range->rows() > 0 && !range->is_null(0, 0))
                extent["temporal"] =
                    OrderedJson::array({model::format_iso_utc(range->get_int(0, 0)),
                                        model::format_iso_utc(range->get_int(0, 1))});
        }
        return extent;
    }
    return std::nullopt;
}

// `datetime.now(UTC).isoformat()`: 2026-01-02T10:11:12.123456+00:00.
std::string now_iso_utc() {
    const auto now = std::chrono::system_clock::now();
    const int64_t us =
        std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count();
    const std::time_t secs = static_cast<std::time_t>(us / 1000000);
    std::tm tm{};
    gmtime_r(&secs, &tm);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%06lld+00:00", tm.tm_year + 1900,
                  tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                  static_cast<long long>(us % 1000000));
    return buf;
}

void rewrite_pit(OrderedJson& pit, const ExportTree& tree) {
    if (!pit.is_object() || !pit.contains("root") || !pit["root"].is_object()) return;
    OrderedJson& root = pit["root"];
    uint64_t old_roots = root.value("n", uint64_t{0});
    uint64_t new_roots = 0;  // the hierarchy counts the children of real roots: no padding
    for (const TreeRow& row : tree.levels[0]) new_roots += row.padding ? 0 : 1;
    root["n"] = tree.levels[0].size();
    if (!pit.contains("hierarchy") || !pit["hierarchy"].is_object()) return;
    // root.n counts padding roots (`--pad-to`), which have no children; the real roots of the
    // source are level 1's count over the children each root has (its pattern's ids).
    if (pit["hierarchy"].contains("1") && pit["hierarchy"]["1"].is_array() &&
        !pit["hierarchy"]["1"].empty()) {
        const OrderedJson& first = pit["hierarchy"]["1"][0];
        if (first.is_object() && first.contains("id") && first["id"].is_array() &&
            !first["id"].empty() && first.contains("n") && first["n"].is_number_unsigned()) {
            old_roots = first["n"].get<uint64_t>() / first["id"].size();
        }
    }
    for (auto& [key, patterns] : pit["hierarchy"].items()) {
        if (!patterns.is_array()) continue;
        const size_t depth = static_cast<size_t>(std::strtoul(key.c_str(), nullptr, 10));
        for (OrderedJson& p : patterns) {
            if (!p.is_object() || !p.contains("n") || !p["n"].is_number_unsigned()) continue;
            if (depth == 1 && patterns.size() == 1 && depth < tree.levels.size()) {
                p["n"] = tree.levels[1].size();
            } else if (old_roots > 0) {
                // PIT: every root has the same subtree shape, so counts scale with the roots.
                p["n"] = p["n"].get<uint64_t>() / old_roots * new_roots;
            }
        }
    }
}

}  // namespace

std::string export_collection_json(const std::string& source_json, const ExportTree& tree,
                                   ExportTables& tables, metadata::DuckSession& db,
                                   const std::string& name, bool subset) {
    // The dataset's own reader parsed it already (Python's NaN / Infinity included).
    OrderedJson doc = format::parse_json_document(source_json, name + ": COLLECTION.json");
    if (!doc.is_object()) throw FormatError(name + ": COLLECTION.json is not a JSON object");
    if (doc.contains("taco:pit_schema")) rewrite_pit(doc["taco:pit_schema"], tree);
    if (auto extent = kept_extent(tree, tables, db)) doc["extent"] = std::move(*extent);
    if (!subset) return format::dump_python_style(doc);

    // taco:subset_of / taco:subset_date go before the taco:* schema keys, where the reference's
    // export put them; an export of an export keeps the original dataset's id.
    const OrderedJson subset_of =
        doc.contains("taco:subset_of") ? doc["taco:subset_of"] : doc.value("id", OrderedJson());
    OrderedJson out = OrderedJson::object();
    bool placed = false;
    for (auto& [key, value] : doc.items()) {
        if (key == "taco:subset_of" || key == "taco:subset_date") continue;
        if (!placed && (key == "taco:pit_schema" || key == "taco:field_schema")) {
            out["taco:subset_of"] = subset_of;
            out["taco:subset_date"] = now_iso_utc();
            placed = true;
        }
        out[key] = value;
    }
    if (!placed) {
        out["taco:subset_of"] = subset_of;
        out["taco:subset_date"] = now_iso_utc();
    }
    return format::dump_python_style(out);
}

}  // namespace taco::convert
