// Level tables become DuckDB views over read_parquet(): nothing is decoded at load time, every
// query scans the Parquet bytes it needs (REFERENCE-API §A6 names: level{i}_table, level{i}, data).
#include "query/dataset_context.hpp"

#include <algorithm>

#include "io/location.hpp"
#include "io/trace.hpp"

#include "metadata/result_table.hpp"
#include "metadata/scalar_udf.hpp"
#include "query/error_text.hpp"
#include "query/level_offsets.hpp"
#include "query/load_checks.hpp"
#include "query/vsi_path.hpp"
#include "spatial/sql_functions.hpp"
#include "taco/errors.hpp"

namespace taco::query {
namespace {

using metadata::quote_identifier;
using metadata::quote_literal;

// The columns every reader relies on (FORMAT.md §9), with the reason given to the user.
void check_required_columns(const format::OpenedDataset& src, size_t level,
                            const std::vector<ColumnType>& cols) {
    const std::string where = src.path.string() + ": " + src.levels[level].name;
    auto require = [&](const char* name, TypeId type, const char* why, bool optional = false) {
        const ColumnType* c = find_column(cols, name);
        if (!c && optional) return;
        if (!c) throw FormatError(where + " has no column '" + name + "' (" + why + ")");
        const bool ok = type == TypeId::String
                            ? c->type.id() == TypeId::String
                            : c->type.id() == TypeId::Int32 || c->type.id() == TypeId::Int64;
        if (!ok) {
            throw FormatError(where + ": column '" + name + "' has type " + c->type.arrow_name() +
                              ", expected " + (type == TypeId::String ? "string" : "int64"));
        }
    };
    require("id", TypeId::String, "every sample needs an id");
    require("type", TypeId::String, "every sample needs a type, FILE or FOLDER");
    if (!src.parts_root.empty()) {
        require("internal:source_file", TypeId::String, "names the part of every row");
    }
    if (src.format == ContainerFormat::Zip) {
        require("internal:offset", TypeId::Int64, "needed to locate samples inside the ZIP");
        require("internal:size", TypeId::Int64, "needed to locate samples inside the ZIP");
    } else if (level > 0) {
        require("internal:relative_path", TypeId::String,
                "needed to locate nested samples in DATA/");
    }
    // The tree's links, where a table has them: cascades and concat join on them as integers,
    // and a string column would fail there with a message naming no file.
    require("internal:current_id", TypeId::Int64, "", true);
    require("internal:parent_id", TypeId::Int64, "", true);
}

// concat() builds each string in one step, about twice as fast as a chain of || (which makes
// every intermediate string); unlike ||, it skips NULLs, so NULL inputs are handled first to keep
// the reference's NULL-in, NULL-out behaviour.
// `url`: whether the root is an HTTP URL (io::is_http_vsi), whose ids and relative paths are
// percent-encoded; nullopt: decided row by row (a concatenation's roots differ).
std::string gdal_vsi_expression(ContainerFormat format, const std::string& root_sql, size_t level,
                                std::optional<bool> url) {
    if (format == ContainerFormat::Zip) {
        return "CASE WHEN \"internal:offset\" IS NULL OR \"internal:size\" IS NULL THEN NULL "
               "ELSE concat('/vsisubfile/', \"internal:offset\", '_', \"internal:size\", ',', " +
               root_sql + ") END";
    }
    const std::string column = level == 0 ? "\"id\"" : "\"internal:relative_path\"";
    // An HTTP root's query string (`…/ds?token=abc`) goes after each file's own path, as
    // io::split_query cuts it; DuckDB folds these on a literal root.
    const std::string is_url = "starts_with(" + root_sql + ", '/vsicurl/')";
    const std::string cut_path = "regexp_replace(" + root_sql + ", '\\?.*$', '')";
    const std::string cut_query = "regexp_extract(" + root_sql + ", '\\?.*$')";
    auto when_url = [&](const std::string& yes, const std::string& no) {
        return !url   ? "CASE WHEN " + is_url + " THEN " + yes + " ELSE " + no + " END"
               : *url ? yes
                      : no;
    };
    const std::string key = when_url(url_path_sql(column), column);
    const std::string base = when_url(cut_path, root_sql);
    const std::string query = when_url(cut_query, "''");
    const std::string meta = level == 0 ? "'/__meta__'" : "'__meta__'";
    return "CASE WHEN " + key + " IS NULL THEN NULL WHEN \"type\" = 'FOLDER' THEN concat(" + base +
           ", '/DATA/', " + key + ", " + meta + ", " + query +
           ") WHEN \"type\" = 'FILE' THEN concat(" + base + ", '/DATA/', " + key + ", " + query +
           ") ELSE NULL END";
}

constexpr const char* kNotPadding = "NOT starts_with(\"id\", '__TACOPAD__')";

}  // namespace

const ColumnType* find_column(const std::vector<ColumnType>& cols, std::string_view name) {
    for (const auto& c : cols)
        if (c.name == name) return &c;
    return nullptr;
}

bool has_column(const std::vector<ColumnType>& cols, std::string_view name) {
    return find_column(cols, name) != nullptr;
}

metadata::ResultTable::HiddenRows padding_rows(size_t id) {
    return {id, std::string(kPaddingPrefix)};
}

std::string root_sql(const DatasetContext& ctx) {
    return ctx.parts ? collection_root_sql(*ctx.parts) : quote_literal(ctx.source.vsi_root);
}

void collect_sources(const DatasetContext& ctx, std::vector<std::filesystem::path>& out) {
    if (ctx.parts) {
        for (const std::string& file : ctx.parts->files) out.push_back(ctx.parts->root + file);
        return;
    }
    if (!ctx.concat) {
        out.push_back(ctx.source.path);
        return;
    }
    for (const ConcatPart& part : ctx.concat->parts) collect_sources(*part.ctx, out);
}

std::vector<const DatasetContext*> collections_in(const DatasetContext& ctx) {
    if (ctx.parts) return {&ctx};
    std::vector<const DatasetContext*> out;
    if (ctx.concat) {
        for (const ConcatPart& part : ctx.concat->parts) {
            const auto inner = collections_in(*part.ctx);
            out.insert(out.end(), inner.begin(), inner.end());
        }
    }
    return out;
}

void configure_reader_session(metadata::DuckSession& db) {
    // Results are always fetched whole, so the streaming buffer only limits how far DuckDB's
    // workers may run ahead of the fetching thread. With the default (~1 MB) a million-row scan
    // runs on one thread; with room to run ahead it uses every core (0.24 -> 0.16 s on 2 cores).
    // Nothing is allocated up front: the chunks it holds are the ones ResultTable keeps anyway.
    db.exec("SET streaming_buffer_size = '1GB'");
    // The level files never change while they are open, and every statement on them (the
    // DESCRIBE, each view's binding, each query) would otherwise parse their footer again.
    db.exec("SET parquet_metadata_cache = true");
    // filter_bbox's predicate: a filtered view must bind on any reader connection (concat too).
    spatial::register_sql_functions(db);
    metadata::register_float_passthrough(db);  // level tables' float columns: see table_select
    metadata::use_utc(db);
}

std::shared_ptr<const metadata::ResultTable> ChildrenCache::find(const std::string& key) {
    std::lock_guard lock(mutex_);
    const auto it = index_.find(key);
    if (it == index_.end()) return nullptr;
    order_.splice(order_.begin(), order_, it->second);
    return it->second->second;
}

bool ChildrenCache::contains(const std::string& key) {
    std::lock_guard lock(mutex_);
    return index_.count(key) != 0;
}

void ChildrenCache::put(const std::string& key,
                        std::shared_ptr<const metadata::ResultTable> table) {
    std::lock_guard lock(mutex_);
    if (index_.count(key)) return;
    order_.emplace_front(key, std::move(table));
    index_.emplace(key, order_.begin());
    if (order_.size() > kCapacity) {
        index_.erase(order_.back().first);
        order_.pop_back();
    }
}

std::string level_view_sql(const std::string& table, const std::vector<ColumnType>& columns,
                           ContainerFormat format, const std::string& root_sql, size_t level,
                           std::optional<bool> url_root) {
    // A table that already carries internal:gdal_vsi (e.g. exported from a view) gets it
    // replaced, so the view never has the column twice.
    const std::string star =
        has_column(columns, "internal:gdal_vsi") ? "* EXCLUDE (\"internal:gdal_vsi\")" : "*";
    return "SELECT " + star + ", " + gdal_vsi_expression(format, root_sql, level, url_root) +
           " AS " + quote_identifier("internal:gdal_vsi") + " FROM " + table + " WHERE " +
           kNotPadding;
}

namespace {

// `SELECT * FROM (relation)`, each FLOAT / DOUBLE column passed through a function so that
// DuckDB does not prune with the file's min/max, which leave NaN out
// (metadata::register_float_passthrough): filters on them then agree with DuckDB's own NaN rule.
std::string table_select(const std::string& relation, const std::vector<ColumnType>& columns) {
    std::string replaced;
    for (const ColumnType& c : columns) {
        const TypeId id = c.type.id();
        if (id != TypeId::Float32 && id != TypeId::Float64) continue;
        const std::string name = quote_identifier(c.name);
        replaced += (replaced.empty() ? "" : ", ") +
                    std::string(id == TypeId::Float32 ? metadata::kFloatPassthrough
                                                      : metadata::kDoublePassthrough) +
                    "(" + name + ") AS " + name;
    }
    return replaced.empty() ? "SELECT * FROM " + relation
                            : "SELECT * REPLACE (" + replaced + ") FROM " + relation;
}

}  // namespace

std::string define_level_table(metadata::DuckSession& db, const DatasetContext& ctx, size_t i,
                               const std::string& prefix, bool replace) {
    const std::string table = prefix + "level" + std::to_string(i) + "_table";
    // A level whose stored offsets the reference writer misaligned reads corrected ones.
    std::string relation = realigned(ctx, i)
                               ? realigned_level_relation(db, ctx, i, prefix)
                               : "read_parquet(" + quote_literal(ctx.level_files[i]) + ")";
    if (ctx.parts) {
        relation = "(" + collection_table_sql(*ctx.parts, i, relation, ctx.level_columns[i]) + ")";
    }
    db.exec(std::string(replace ? "CREATE OR REPLACE VIEW " : "CREATE VIEW ") + table + " AS " +
            table_select(relation, ctx.level_columns[i]));
    return table;
}

void define_level_views(metadata::DuckSession& db, const DatasetContext& ctx,
                        const std::string& prefix, bool level_views) {
    if (ctx.concat) {
        for (size_t k = 0; k < ctx.concat->parts.size(); ++k) {
            const ConcatPart& part = ctx.concat->parts[k];
            define_level_views(db, *part.ctx, part_prefix(prefix, k), part.filtered);
        }
        define_concat_views(db, *ctx.concat, ctx.source.format, prefix);
        return;
    }
    for (size_t i = 0; i < ctx.level_files.size(); ++i) {
        const std::string table = define_level_table(db, ctx, i, prefix, false);
        if (!level_views) continue;
        db.exec("CREATE VIEW " + prefix + "level" + std::to_string(i) + " AS " +
                level_view_sql(table, ctx.level_columns[i], ctx.source.format, root_sql(ctx), i,
                               !ctx.parts && io::is_http_vsi(ctx.source.vsi_root)));
    }
}

namespace {

// Level `i`'s footer, from its copy (a memfd) or its file; nullopt when it does not parse or its
// two row counts differ (then DuckDB answers the checks, as for any odd file).
std::optional<format::ParquetFooter> level_footer(const format::LevelSource& level,
                                                  const StagedLevels& staged, size_t i) {
    std::optional<format::ParquetFooter> footer;
    if (level.file.empty()) {
        if (i < staged.bytes.size()) footer = format::read_parquet_footer(staged.bytes[i]->fd());
    } else {
        footer = format::read_parquet_footer_file(level.file.string());
    }
    if (footer && footer->num_rows != footer->row_group_rows) return std::nullopt;
    return footer;
}

}  // namespace

StagedLevels stage_levels(const format::OpenedDataset& opened) {
    io::TraceScope trace("load(): level files");
    StagedLevels out;
    for (const format::LevelSource& level : opened.levels) {
        if (level.file.empty()) {  // a range of an archive (ZIP, __TACOCAT__, remote file)
            auto mem = std::make_unique<io::MemFd>("taco-level");
            const auto& from = level.source ? level.source : opened.archive;
            from->copy_to_fd(level.offset, level.size, mem->fd(), level.name);
            out.files.push_back(mem->proc_path());
            out.bytes.push_back(std::move(mem));
        } else {
            paths::SqlPath file = paths::anchor_path(level.file);
            out.files.push_back(std::move(file.text));
            if (file.anchor) out.anchors.push_back(std::move(file.anchor));
        }
    }
    // A remote archive kept the metadata it fetched in one request; the copies above hold it now.
    if (opened.archive) opened.archive->drop_prefetched();
    if (!opened.levels.empty()) out.level0_footer = level_footer(opened.levels[0], out, 0);
    // The deeper levels' row counts, checked against taco:pit_schema (check_level_rows); a
    // collection index's counts follow other rules.
    if (opened.parts_root.empty()) {
        for (size_t i = 1; i < opened.levels.size(); ++i) {
            const auto footer = level_footer(opened.levels[i], out, i);
            out.level_rows.push_back(footer ? std::optional<uint64_t>(footer->num_rows)
                                            : std::nullopt);
        }
    }
    return out;
}

std::shared_ptr<DatasetContext> make_context(format::OpenedDataset opened, StagedLevels levels,
                                             metadata::DuckSession session) {
    auto ctx = std::make_shared<DatasetContext>(std::move(session));
    const std::optional<format::ParquetFooter> footer0 = std::move(levels.level0_footer);
    const std::vector<std::optional<uint64_t>> level_rows = std::move(levels.level_rows);
    ctx->source = std::move(opened);
    ctx->level_bytes = std::move(levels.bytes);
    ctx->level_files = std::move(levels.files);
    for (auto& anchor : levels.anchors) ctx->source.anchors.push_back(std::move(anchor));
    const format::OpenedDataset& src = ctx->source;
    metadata::DuckSession& db = ctx->db;
    std::lock_guard lock(ctx->db_mutex);
    configure_reader_session(db);

    if (src.archive && src.parts_root.empty()) ctx->archives.emplace(src.vsi_root, src.archive);
    for (size_t i = 0; i < src.levels.size(); ++i) {
        try {
            ctx->level_columns.push_back(metadata::describe_query(
                db, "SELECT * FROM read_parquet(" + quote_literal(ctx->level_files[i]) + ")"));
        } catch (const QueryError& e) {
            throw FormatError(src.path.string() + ": " + src.levels[i].name +
                              " is not a readable Parquet file: " +
                              user_facing_duckdb_error(*ctx, e.what()).text);
        }
        check_required_columns(src, i, ctx->level_columns.back());
    }
    if (!ctx->level_files.empty()) {
        const format::ParquetFooter* footer = footer0 ? &*footer0 : nullptr;
        check_level_count(src);
        check_root_count(src, db, ctx->level_files[0], footer);
        for (size_t i = 0; i < level_rows.size(); ++i)
            if (level_rows[i]) check_level_rows(src, i + 1, *level_rows[i]);
        check_level0_ids(src, db, ctx->level_files[0], footer);
    }
    if (!src.parts_root.empty()) {
        ctx->parts = index_collection(db, src, ctx->level_files, ctx->level_columns);
        for (size_t k = 0; k < ctx->parts->files.size(); ++k) {
            if (ctx->parts->sources[k])
                ctx->archives.emplace(ctx->parts->root + ctx->parts->files[k],
                                      ctx->parts->sources[k]);
        }
    }
    find_misaligned_levels(*ctx);
    define_level_views(db, *ctx, "");
    db.exec("CREATE VIEW data AS SELECT * FROM level0");
    for (size_t i = 0; i < src.levels.size(); ++i) {
        if (src.levels[i].unverified) ctx->unverified_levels.push_back(i);
    }
    return ctx;
}

}  // namespace taco::query
