// taco::concat: checks that the inputs can be combined (REFERENCE-API §A13 order), resolves the
// columns of every level, and builds a dataset whose views are unions over the inputs' views
// (see concat_views.cpp). The inputs stay alive as long as the result does.
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "format/collection_parse.hpp"
#include "io/trace.hpp"
#include "model/join.hpp"
#include "query/dataset_context.hpp"
#include "query/level_revalidation.hpp"
#include "query/lifetime.hpp"
#include "taco/dataset.hpp"
#include "taco/errors.hpp"

namespace taco {
namespace {

constexpr const char* kGdalVsi = "internal:gdal_vsi";
constexpr const char* kSourcePath = "internal:source_path";
constexpr const char* kBaseView = "SELECT * FROM level0";

std::string name_of(const Dataset& d, size_t k) {
    return "dataset " + std::to_string(k) + " ('" + d.path().string() + "')";
}

std::string join(const std::vector<std::string>& items) {
    const std::string out = join_text(items);
    return out.empty() ? "(none)" : out;
}

std::string pattern_text(const PitPattern& p) {
    std::vector<std::string> parts;
    for (size_t i = 0; i < p.ids.size() && i < p.types.size(); ++i)
        parts.push_back(p.ids[i] + ":" + p.types[i]);
    return "[" + join(parts) + "]";
}

// PITSchema.is_compatible of the reference: same root type and, per depth, the same patterns
// (child types and ids); the counts may differ.
void check_pit(const Dataset& first, const Dataset& other, size_t k) {
    const PitSchema& a = first.pit_schema();
    const PitSchema& b = other.pit_schema();
    auto fail = [&](const std::string& what) {
        throw SchemaError("concat(): " + name_of(other, k) +
                          " does not have the tree structure of " + name_of(first, 0) + ": " +
                          what);
    };
    if (a.root_type != b.root_type) fail("root type " + b.root_type + " vs " + a.root_type);
    if (a.hierarchy.size() != b.hierarchy.size()) {
        fail("depth " + std::to_string(b.max_depth()) + " vs " + std::to_string(a.max_depth()));
    }
    for (size_t d = 0; d < a.hierarchy.size(); ++d) {
        const auto& pa = a.hierarchy[d];
        const auto& pb = b.hierarchy[d];
        if (pa.size() != pb.size()) {
            fail(std::to_string(pb.size()) + " patterns at depth " + std::to_string(d + 1) +
                 " vs " + std::to_string(pa.size()));
        }
        for (size_t i = 0; i < pa.size(); ++i) {
            if (pa[i].types != pb[i].types || pa[i].ids != pb[i].ids) {
                fail("pattern " + std::to_string(i) + " at depth " + std::to_string(d + 1) +
                     " is " + pattern_text(pb[i]) + " vs " + pattern_text(pa[i]));
            }
        }
    }
}

// The columns navigation cannot do without (REFERENCE-API §A13, critical columns).
std::vector<std::string> required_columns(ContainerFormat format, size_t level) {
    std::vector<std::string> cols = {"id", "type"};
    if (level > 0) cols.push_back("internal:parent_id");
    if (format == ContainerFormat::Zip) {
        cols.push_back("internal:offset");
        cols.push_back("internal:size");
    } else if (level > 0) {
        cols.push_back("internal:relative_path");
    }
    return cols;
}

bool is_internal_integer(const std::string& name) {
    return name == "internal:current_id" || name == "internal:parent_id" ||
           name == "internal:offset" || name == "internal:size";
}

bool is_number(TypeId id) {
    return id == TypeId::Int32 || id == TypeId::Int64 || id == TypeId::Float32 ||
           id == TypeId::Float64;
}

// The type a column that is numeric in every part takes in the union, as DuckDB's UNION ALL in
// tacoreader's concat resolves it: the wider integer, or double as soon as one part is a float
// (an int64 above 2^53 then rounds, as there). Nullopt when either side is not a number.
std::optional<DataType> common_number(const DataType& a, const DataType& b) {
    if (!is_number(a.id()) || !is_number(b.id())) return std::nullopt;
    const bool a_int = a.id() == TypeId::Int32 || a.id() == TypeId::Int64;
    const bool b_int = b.id() == TypeId::Int32 || b.id() == TypeId::Int64;
    if (a_int && b_int) return a.id() == TypeId::Int64 ? a : b;
    return DataType::float64();
}

// The union's columns at one level: every part's columns in first-seen order, kept by `mode`,
// one type each (numbers of different widths widened: common_number), then
// internal:source_path.
std::vector<ColumnType> resolve_columns(const std::vector<Dataset>& inputs,
                                        const std::vector<query::ConcatPart>& parts, size_t level,
                                        ColumnMode mode) {
    std::vector<ColumnType> all;
    std::map<std::string, size_t> owner;  // column -> first part that has it
    std::vector<std::set<std::string>> has(parts.size());
    for (size_t k = 0; k < parts.size(); ++k) {
        for (const ColumnType& c : parts[k].columns[level]) {
            if (c.name == kGdalVsi || c.name == kSourcePath || has[k].count(c.name)) continue;
            has[k].insert(c.name);
            const auto seen = owner.find(c.name);
            if (seen == owner.end()) {
                owner.emplace(c.name, k);
                all.push_back(is_internal_integer(c.name) ? ColumnType{c.name, DataType::int64()}
                                                          : c);
                continue;
            }
            ColumnType& first = *std::find_if(
                all.begin(), all.end(), [&](const ColumnType& x) { return x.name == c.name; });
            if (is_internal_integer(c.name) || first.type == c.type) continue;
            if (const std::optional<DataType> wider = common_number(first.type, c.type)) {
                first.type = *wider;
            } else {
                const DataType own =
                    query::find_column(parts[seen->second].columns[level], c.name)->type;
                throw SchemaError("concat(): column '" + c.name + "' at level " +
                                  std::to_string(level) + " is " + own.arrow_name() + " in " +
                                  name_of(inputs[seen->second], seen->second) + " but " +
                                  c.type.arrow_name() + " in " + name_of(inputs[k], k));
            }
        }
    }
    const ContainerFormat format = inputs[0].format();
    for (size_t k = 0; k < parts.size(); ++k) {
        for (const std::string& name : required_columns(format, level)) {
            if (!has[k].count(name)) {
                throw SchemaError("concat(): " + name_of(inputs[k], k) + " has no column '" + name +
                                  "' at level " + std::to_string(level) +
                                  ", which navigation needs" +
                                  (level == 0 ? "; keep it in the sql() projection" : ""));
            }
        }
    }
    std::vector<std::string> partial;  // columns some parts lack
    for (const ColumnType& c : all) {
        for (size_t k = 0; k < parts.size(); ++k) {
            if (!has[k].count(c.name)) {
                partial.push_back(c.name);
                break;
            }
        }
    }
    if (mode == ColumnMode::Strict && !partial.empty()) {
        std::string detail;
        for (size_t k = 0; k < parts.size(); ++k) {
            std::vector<std::string> own;
            for (const ColumnType& c : parts[k].columns[level])
                if (c.name != kGdalVsi && c.name != kSourcePath) own.push_back(c.name);
            detail += "\n  " + name_of(inputs[k], k) + ": " + join(own);
        }
        std::vector<std::string> common;
        for (const ColumnType& c : all)
            if (std::find(partial.begin(), partial.end(), c.name) == partial.end())
                common.push_back(c.name);
        throw SchemaError("concat(column_mode=strict): the columns of level " +
                          std::to_string(level) + " differ between the datasets:" + detail +
                          "\n  only in some: " + join(partial) + "\n  common: " + join(common));
    }
    std::vector<ColumnType> out;
    for (const ColumnType& c : all) {
        const bool everywhere = std::find(partial.begin(), partial.end(), c.name) == partial.end();
        if (everywhere || mode == ColumnMode::FillMissing) out.push_back(c);
    }
    out.push_back({kSourcePath, DataType::string()});
    return out;
}

// The counts of a view keeping `kept` of its dataset's root samples: every count scaled by
// kept / root n (exact for a PIT, where every root sample has the same subtree), as the Python
// package's pit_schema of a view.
PitSchema scaled_pit(PitSchema pit, uint64_t kept) {
    const uint64_t total = pit.root_n;
    pit.root_n = kept;
    for (auto& patterns : pit.hierarchy)
        for (auto& p : patterns)
            p.n = total > 0
                      ? static_cast<uint64_t>((static_cast<unsigned __int128>(p.n) * kept) / total)
                      : 0;
    return pit;
}

// The first input's collection with every taco:pit_schema count summed over the inputs' views
// (`pits`: a filtered input counts the samples it keeps, not its whole dataset).
format::CollectionDocument summed_collection(const std::vector<Dataset>& inputs,
                                             const std::vector<PitSchema>& pits) {
    format::CollectionDocument doc;
    doc.text = inputs[0].collection_json();
    doc.info = inputs[0].info();
    doc.pit = pits[0];
    doc.fields = inputs[0].field_schema();
    for (size_t k = 1; k < inputs.size(); ++k) {
        const PitSchema& other = pits[k];
        doc.pit.root_n += other.root_n;
        for (size_t d = 0; d < doc.pit.hierarchy.size(); ++d)
            for (size_t i = 0; i < doc.pit.hierarchy[d].size(); ++i)
                doc.pit.hierarchy[d][i].n += other.hierarchy[d][i].n;
    }
    format::OrderedJson json = format::parse_json_document(doc.text, "COLLECTION.json");
    format::OrderedJson& pit = json["taco:pit_schema"];
    pit["root"]["n"] = doc.pit.root_n;
    for (size_t d = 0; d < doc.pit.hierarchy.size(); ++d) {
        format::OrderedJson& patterns = pit["hierarchy"][std::to_string(d + 1)];
        for (size_t i = 0; i < doc.pit.hierarchy[d].size() && i < patterns.size(); ++i)
            patterns[i]["n"] = doc.pit.hierarchy[d][i].n;
    }
    doc.text = format::dump_python_style(json);
    return doc;
}

}  // namespace

ColumnMode parse_column_mode(const std::string& name) {
    if (name == "intersection") return ColumnMode::Intersection;
    if (name == "fill_missing") return ColumnMode::FillMissing;
    if (name == "strict") return ColumnMode::Strict;
    throw QueryError("concat(): unknown column_mode '" + name +
                     "'; expected intersection, fill_missing or strict");
}

Dataset concat(const std::vector<Dataset>& inputs, ColumnMode mode) {
    if (inputs.size() < 2) {
        throw QueryError("concat(): needs at least 2 datasets, got " +
                         std::to_string(inputs.size()));
    }
    std::vector<std::shared_ptr<const query::Lifetime>> lives;
    for (const Dataset& input : inputs) {
        input.life_->check("concat()");
        lives.push_back(input.life_);
    }
    const Dataset& first = inputs[0];
    for (size_t k = 0; k < inputs.size(); ++k) {
        const Dataset& d = inputs[k];
        if (d.level_ != 0) {
            throw QueryError("concat(): " + name_of(d, k) + " is a view of level " +
                             std::to_string(d.level_) +
                             "; concatenate level-0 views (load() results and their sql())");
        }
        if (d.format() != first.format()) {
            throw SchemaError(
                "concat(): cannot concatenate datasets with different formats; "
                "cannot mix containers: " +
                name_of(first, 0) + " is " + to_string(first.format()) + ", " + name_of(d, k) +
                " is " + to_string(d.format()));
        }
        if (k > 0) check_pit(first, d, k);
        if (d.level_count() != first.level_count()) {
            throw SchemaError("concat(): " + name_of(d, k) + " has " +
                              std::to_string(d.level_count()) + " level tables, " +
                              name_of(first, 0) + " has " + std::to_string(first.level_count()));
        }
    }

    auto ctx = std::make_shared<query::DatasetContext>();
    auto plan = std::make_shared<query::ConcatPlan>();
    ctx->source.path = "<concatenated>";
    ctx->source.format = first.format();
    ctx->source.vsi_root = "<concatenated>";
    ctx->source.levels = first.ctx_->source.levels;
    std::vector<PitSchema> pits;
    for (const Dataset& d : inputs) {
        // A view of a filter keeps fewer samples than its COLLECTION.json counts.
        pits.push_back(d.view_sql_ == "SELECT * FROM level0"
                           ? d.pit_schema()
                           : scaled_pit(d.pit_schema(), d.count()));
    }
    ctx->source.collection = summed_collection(inputs, pits);
    const size_t levels = first.level_count();

    std::lock_guard lock(ctx->db_mutex);
    metadata::DuckSession& db = ctx->db;
    query::configure_reader_session(db);
    std::optional<io::TraceScope> phase(std::in_place, "concat: part views");
    for (size_t k = 0; k < inputs.size(); ++k) {
        query::ConcatPart part;
        part.ctx = inputs[k].ctx_;
        part.view_sql = inputs[k].view_sql_;
        part.filtered = part.view_sql != kBaseView;
        {
            // The union reads the part's level files from here on: they must be current.
            std::lock_guard part_lock(part.ctx->db_mutex);
            query::ensure_levels_current(*part.ctx);
        }
        query::define_level_views(db, *part.ctx, query::part_prefix("", k), part.filtered);
        for (const auto& [root, archive] : part.ctx->archives) ctx->archives.emplace(root, archive);
        plan->parts.push_back(std::move(part));
    }
    phase.emplace("concat: part columns, counts");
    for (size_t level = 0; level < levels; ++level) {
        int64_t base = 0;
        for (size_t k = 0; k < plan->parts.size(); ++k) {
            query::ConcatPart& part = plan->parts[k];
            const std::string table =
                query::part_prefix("", k) + "level" + std::to_string(level) + "_table";
            try {
                part.columns.push_back(
                    level == 0 && part.filtered
                        ? metadata::describe_query(db,
                                                   query::concat_part_relation(part, k, level, ""))
                        : part.ctx->level_columns[level]);
                part.id_base.push_back(base);
                base += std::stoll(db.query_scalar("SELECT count(*) FROM " + table));
            } catch (const QueryError& e) {
                throw QueryError("concat(): " + name_of(inputs[k], k) + ": " + e.what());
            }
        }
        plan->columns.push_back(resolve_columns(inputs, plan->parts, level, mode));
    }
    phase.emplace("concat: union views");
    query::define_concat_views(db, *plan, ctx->source.format, "");
    db.exec("CREATE VIEW data AS SELECT * FROM level0");
    phase.reset();
    ctx->level_columns = plan->columns;
    ctx->concat = std::move(plan);
    Dataset out(ctx, kBaseView, 0, false);
    // Closing any input closes the concatenation (it reads their files through their sessions).
    out.life_ = std::make_shared<query::Lifetime>(out.id(), std::move(lives));
    return out;
}

}  // namespace taco
