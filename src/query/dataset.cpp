// taco::Dataset and taco::load: collection accessors and the lazy view. A Dataset is the SQL text
// of its view plus the shared context; rows are fetched only by data(), data_raw() and count().
#include "taco/dataset.hpp"

#include <future>

#include "format/dataset_open.hpp"
#include "io/location.hpp"
#include "io/trace.hpp"
#include "metadata/result_table.hpp"
#include "metadata/spatial_extension.hpp"
#include "model/column_names.hpp"
#include "query/cascade.hpp"
#include "query/dataframe_impl.hpp"
#include "query/dataset_context.hpp"
#include "query/error_text.hpp"
#include "query/explain.hpp"
#include "query/flat_views.hpp"
#include "query/level_offsets.hpp"
#include "query/level_revalidation.hpp"
#include "query/lifetime.hpp"
#include "query/sandbox.hpp"
#include "query/sql_compose.hpp"
#include "query/vsi_path.hpp"
#include "raster/gdal_drivers.hpp"
#include "taco/errors.hpp"
#include "taco/legacy.hpp"

namespace taco {
namespace {

constexpr const char* kGdalVsi = "internal:gdal_vsi";

using query::rethrow_query;

}  // namespace

Dataset::Dataset(std::shared_ptr<query::DatasetContext> context, std::string view_sql, size_t level,
                 bool base)
    : ctx_(std::move(context)),
      view_sql_(std::move(view_sql)),
      level_(level),
      base_(base),
      life_(std::make_shared<query::Lifetime>(ctx_ ? ctx_->source.collection.info.id : "")) {}

Dataset Dataset::derived(std::string view_sql, size_t level, bool base) const {
    Dataset out(ctx_, std::move(view_sql), level, base);
    out.life_ = query::Lifetime::derived(life_);
    return out;
}

void Dataset::close() const {
    life_->close();
}

bool Dataset::closed() const {
    return life_->closed();
}

const CollectionInfo& Dataset::info() const {
    return ctx_->source.collection.info;
}
const std::string& Dataset::id() const {
    return info().id;
}
const std::string& Dataset::version() const {
    return info().dataset_version;
}
const std::string& Dataset::description() const {
    return info().description;
}
const std::string& Dataset::taco_version() const {
    return info().taco_version;
}
const std::vector<std::string>& Dataset::tasks() const {
    return info().tasks;
}
const std::vector<std::string>& Dataset::licenses() const {
    return info().licenses;
}
const std::vector<Contact>& Dataset::providers() const {
    return info().providers;
}
const std::optional<std::string>& Dataset::title() const {
    return info().title;
}
const std::optional<std::vector<Contact>>& Dataset::curators() const {
    return info().curators;
}
const std::optional<std::vector<std::string>>& Dataset::keywords() const {
    return info().keywords;
}
const std::optional<Extent>& Dataset::extent() const {
    return info().extent;
}
const std::string& Dataset::collection_json() const {
    return ctx_->source.collection.text;
}
const PitSchema& Dataset::pit_schema() const {
    return ctx_->source.collection.pit;
}
const std::vector<LevelFields>& Dataset::field_schema() const {
    return ctx_->source.collection.fields;
}

const std::filesystem::path& Dataset::path() const {
    return ctx_->source.path;
}
std::vector<std::filesystem::path> Dataset::sources() const {
    std::vector<std::filesystem::path> out;
    query::collect_sources(*ctx_, out);
    return out;
}
ContainerFormat Dataset::format() const {
    return ctx_->source.format;
}

bool Dataset::is_collection() const {
    return !query::collections_in(*ctx_).empty();
}

std::vector<std::string> Dataset::missing_parts() const {
    std::vector<std::string> out;
    for (const query::DatasetContext* collection : query::collections_in(*ctx_))
        for (const std::string& file : collection->parts->missing)
            out.push_back(collection->parts->root + file);
    return out;
}
size_t Dataset::level_count() const {
    return ctx_->source.levels.size();
}
const std::string& Dataset::query() const {
    return view_sql_;
}

Dataset Dataset::sql(const std::string& query) const {
    life_->check("sql()");
    if (query::is_explain(view_sql_)) {
        throw QueryError(path().string() +
                         ": sql(): the result of EXPLAIN is a query plan, not a table to query "
                         "further; put EXPLAIN in front of the whole query instead");
    }
    // ST_* functions come from DuckDB's spatial extension, loaded from its local file on first
    // use (a clear error when it is not installed; nothing else needs it).
    if (metadata::calls_spatial_function(query)) {
        std::lock_guard lock(ctx_->db_mutex);
        try {
            metadata::load_spatial_extension(ctx_->db);
        } catch (const QueryError& e) {
            throw QueryError(path().string() + ": sql(): " + e.what());
        }
    }
    Dataset out = derived(compose(query), 0);
    // EXPLAIN ANALYZE echoes the statement it ran; the user sees their own instead.
    if (query::is_explain(query)) out.explain_query_ = query;
    // A cascade's survivors stay: sql() can only narrow the level-0 rows they hang from.
    out.cascade_ = cascade_;
    return out;
}

std::string Dataset::compose(const std::string& query) const {
    if (!query::names_flat_view(query)) return query::bind_data_view(view_sql_, query);
    query::ensure_flat_views(*ctx_);
    // The catalog's l0..lN show every row; after a filter they follow the current view's rows.
    if (level_ == 0 && (view_sql_ != "SELECT * FROM level0" || cascade_)) {
        // The view's rows are found in level 0 by internal:current_id, or by id when the view
        // dropped it (binding only; a view that does not bind fails later, at data()).
        std::string key = "internal:current_id";
        std::optional<std::vector<ColumnType>> cols;
        try {
            cols = columns();
        } catch (const QueryError&) {
        }
        if (cols && !query::has_column(*cols, key)) {
            if (!query::has_column(*cols, "id")) {
                throw QueryError(path().string() +
                                 ": the flat views l0..lN follow the rows of the current view, "
                                 "which needs its column 'internal:current_id' or 'id'; the "
                                 "view has neither (keep one of them in its SELECT)");
            }
            key = "id";
        }
        return query::bind_data_view(
            view_sql_, query, query::filtered_flat_ctes(ctx_->level_columns, key, cascade_.get()));
    }
    return query::bind_data_view(view_sql_, query);
}

Dataset Dataset::level(size_t index) const {
    life_->check("level()");
    if (index >= level_count()) {
        throw NavigationError(path().string() + ": level " + std::to_string(index) +
                              " does not exist; the dataset has levels 0.." +
                              std::to_string(level_count() - 1));
    }
    // A concatenation's levels have no single root to compute paths from: they go through SQL.
    return derived("SELECT * FROM level" + std::to_string(index), index, !ctx_->concat);
}

DataFrame Dataset::fetch(bool raw) const {
    life_->check(raw ? "data_raw()" : "data()");
    const io::Deadline deadline = query::query_deadline(*ctx_);
    if (base_) return fetch_level(raw);
    metadata::ColumnFilter keep;
    if (!raw) {
        // As tacoreader's .data: internal columns are navigation plumbing, except the GDAL path.
        // With a cascade, the ids that find a row's surviving children stay too.
        keep = [cascade = cascade_ != nullptr](const std::string& name) {
            return query::shown_in_data(name, cascade);
        };
    }
    std::shared_ptr<const metadata::ResultTable> rows;
    {
        std::lock_guard lock(ctx_->db_mutex);
        query::ensure_levels_current(*ctx_);
        try {
            rows = query::is_explain(view_sql_)
                       ? query::run_explain(*ctx_, view_sql_, explain_query_)
                       : metadata::ResultTable::fetch(ctx_->db, view_sql_, keep,
                                                      ctx_->concat != nullptr);
        } catch (const QueryError& e) {
            rethrow_query(*ctx_, e, view_sql_);
        }
    }
    auto impl = std::make_shared<query::DataFrameImpl>(ctx_, std::move(rows), level_);
    impl->cascade = cascade_;
    impl->life = life_;
    return DataFrame(std::move(impl));
}

void Dataset::stream_raw(const std::function<void(const DataFrame& batch)>& batch) const {
    life_->check("stream_raw()");
    const io::Deadline deadline = query::query_deadline(*ctx_);
    std::lock_guard lock(ctx_->db_mutex);
    query::ensure_levels_current(*ctx_);
    // The session lets DuckDB run up to 1 GB ahead of the fetching thread (what whole fetches
    // want, configure_reader_session); a stream holds a few chunks instead. A sandboxed session
    // has its configuration locked: it keeps the 1 GB.
    bool narrowed = false;
    try {
        ctx_->db.exec("SET streaming_buffer_size = '16MB'");
        narrowed = true;
    } catch (const QueryError&) {
    }
    struct RestoreBuffer {
        metadata::DuckSession& db;
        bool active;
        ~RestoreBuffer() {
            if (!active) return;
            try {
                db.exec("SET streaming_buffer_size = '1GB'");
            } catch (const Error&) {
            }
        }
    } restore{ctx_->db, narrowed};
    try {
        metadata::ResultTable::stream(
            ctx_->db, view_sql_,
            [&](std::shared_ptr<const metadata::ResultTable> rows) {
                auto impl = std::make_shared<query::DataFrameImpl>(ctx_, std::move(rows), level_);
                impl->life = life_;
                batch(DataFrame(std::move(impl)));
            },
            ctx_->concat != nullptr);
    } catch (const QueryError& e) {
        rethrow_query(*ctx_, e, view_sql_);
    }
}

// The rows of view `level{i}` without asking DuckDB to build a million gdal_vsi strings or to
// filter padding: the raw table's columns are fetched and the path column is appended by
// ResultTable::derive (the views stay for SQL; both give the same rows, see gdal_vsi_expression).
DataFrame Dataset::fetch_level(bool raw) const {
    const std::vector<ColumnType>& table = ctx_->level_columns[level_];
    const format::OpenedDataset& src = ctx_->source;
    const bool zip = src.format == ContainerFormat::Zip;
    auto shown = [&](const std::string& name) {
        if (name == kGdalVsi) return false;  // replaced by the computed one
        return raw || !is_internal_column(name);
    };
    const std::string path_column = zip ? "" : level_ == 0 ? "id" : "internal:relative_path";
    const query::CollectionParts* parts = ctx_->parts.get();
    auto needed = [&](const std::string& name) {
        return name == "id" || name == "type" || name == path_column ||
               (zip && (name == "internal:offset" || name == "internal:size")) ||
               (parts && name == "internal:source_file");
    };
    std::vector<std::string> selected;
    std::vector<size_t> shown_columns;
    std::optional<size_t> id, type, offset, size, key, part;
    size_t position = 0;
    for (const ColumnType& c : table) {
        if (!shown(c.name) && !needed(c.name)) continue;
        selected.push_back(c.name);
        if (shown(c.name)) shown_columns.push_back(position);
        if (c.name == "id" && !id) id = position;
        if (c.name == "type" && !type) type = position;
        if (c.name == "internal:offset" && !offset) offset = position;
        if (c.name == "internal:size" && !size) size = position;
        if (c.name == path_column && !key) key = position;
        if (c.name == "internal:source_file" && !part) part = position;
        ++position;
    }
    std::shared_ptr<const metadata::ResultTable> rows;
    {
        std::lock_guard lock(ctx_->db_mutex);
        query::ensure_levels_current(*ctx_);
        try {
            std::shared_ptr<const metadata::ResultTable> all;
            {
                io::TraceScope trace("data(): fetch level");
                // A loaded dataset's level is one Parquet file: scanned straight into the table.
                // A collection's raw ids are shifted by its level view, so they go through SQL.
                // A realigned level's offsets come from its view (query/level_offsets.hpp).
                if (!ctx_->concat && !(parts && raw) && level_ < ctx_->level_files.size() &&
                    !query::realigned(*ctx_, level_)) {
                    all = metadata::ResultTable::scan_parquet(ctx_->db, ctx_->level_files[level_],
                                                              selected);
                }
                if (!all) {
                    std::string select;
                    for (const std::string& name : selected)
                        select += (select.empty() ? "" : ", ") + metadata::quote_identifier(name);
                    all = metadata::ResultTable::fetch(
                        ctx_->db,
                        "SELECT " + select + " FROM level" + std::to_string(level_) + "_table",
                        nullptr, ctx_->concat != nullptr);
                }
            }
            io::TraceScope trace("data(): padding");
            // The paths are made when first read (often never for most rows, and a million of
            // them cost as much as the Parquet decoding): the lambda owns what it uses.
            const io::QuerySplit folder_root = io::split_query(src.vsi_root);
            auto vsi =
                [zip, offset = offset.value_or(0), size = size.value_or(0), key = key.value_or(0),
                 type = *type, root = parts ? parts->root : src.vsi_root,
                 part = parts ? part : std::nullopt, part_query = parts ? parts->query : "",
                 data_dir = std::string(folder_root.path) + "/DATA/",
                 query = std::string(folder_root.query),
                 url = io::is_http_vsi(parts ? parts->root : src.vsi_root),
                 meta = level_ == 0 ? "/__meta__" : "__meta__"](
                    const metadata::ResultTable::ChunkRows& rows, size_t row, std::string& out) {
                    if (zip) {
                        if (rows.is_null(row, offset) || rows.is_null(row, size)) return false;
                        if (part) {  // a collection: the row's part, beside the index
                            if (rows.is_null(row, *part)) return false;
                            query::write_vsi_subfile(out, rows.get_int(row, offset),
                                                     rows.get_int(row, size), root);
                            query::append_path(out, rows.get_string(row, *part), url);
                            out += part_query;
                            return true;
                        }
                        query::write_vsi_subfile(out, rows.get_int(row, offset),
                                                 rows.get_int(row, size), root);
                        return true;
                    }
                    if (rows.is_null(row, key) || rows.is_null(row, type)) return false;
                    const std::string_view kind = rows.get_string(row, type);
                    if (kind != "FILE" && kind != "FOLDER") return false;
                    out.assign(data_dir);
                    query::append_path(out, rows.get_string(row, key), url);
                    if (kind == "FOLDER") out += meta;
                    out += query;
                    return true;
                };
            rows = metadata::ResultTable::derive_lazy(all, shown_columns, query::padding_rows(*id),
                                                      kGdalVsi, vsi);
        } catch (const QueryError& e) {
            rethrow_query(*ctx_, e, view_sql_);
        }
    }
    auto impl = std::make_shared<query::DataFrameImpl>(ctx_, std::move(rows), level_);
    impl->life = life_;
    return DataFrame(std::move(impl));
}

DataFrame Dataset::data() const {
    return fetch(false);
}
DataFrame Dataset::data_raw() const {
    return fetch(true);
}

std::vector<ColumnType> Dataset::columns() const {
    life_->check("columns()");
    const io::Deadline deadline = query::query_deadline(*ctx_);
    std::lock_guard lock(ctx_->db_mutex);
    query::ensure_levels_current(*ctx_);
    try {
        return metadata::describe_query(ctx_->db, view_sql_);
    } catch (const QueryError& e) {
        rethrow_query(*ctx_, e, view_sql_);
    }
}

uint64_t Dataset::count() const {
    life_->check("count()");
    const io::Deadline deadline = query::query_deadline(*ctx_);
    std::lock_guard lock(ctx_->db_mutex);
    query::ensure_levels_current(*ctx_);
    try {
        if (query::is_explain(view_sql_))  // a plan is no sub-query: its rows are counted
            return metadata::ResultTable::fetch(ctx_->db, view_sql_)->rows();
        return std::stoull(ctx_->db.query_scalar("SELECT count(*) FROM (\n" + view_sql_ + "\n)"));
    } catch (const QueryError& e) {
        rethrow_query(*ctx_, e, view_sql_);
    }
}

void Dataset::interrupt() const {
    ctx_->db.interrupt();  // duckdb_interrupt is thread-safe: no db_mutex (the query holds it)
}

Dataset load(const std::filesystem::path& path) {
    return load(path, LoadOptions{});
}

Dataset load(const std::filesystem::path& path, const LoadOptions& options) {
    query::check_load_options(options, path.string());
    // Tortilla 0.5 / TACO 0.2 files open read-only through src/legacy/ (issue 16).
    if (is_legacy_v1_file(path)) return load_legacy(path, options);
    // Starting DuckDB (its catalog of built-in functions) takes ~20 ms of one core: it runs on
    // another thread while this one reads the container and copies the level tables out of it.
    std::future<metadata::DuckSession> session =
        std::async(std::launch::async, [] { return metadata::DuckSession(); });
    format::OpenedDataset opened;
    {
        io::TraceScope trace("load(): open container");
        opened = format::open_dataset(path, options.base_path);
    }
    query::StagedLevels levels = query::stage_levels(opened);
    metadata::DuckSession db = [&] {
        io::TraceScope trace("load(): wait for DuckDB");
        return session.get();
    }();
    // The core DuckDB started on is free again: GDAL registers its drivers there while this one
    // builds the views, so the first raster read does not pay ~3 ms for it.
    raster::register_drivers_in_background();
    io::TraceScope trace("load(): level views");
    auto ctx = query::make_context(std::move(opened), std::move(levels), std::move(db));
    query::apply_load_options(*ctx, options);
    return Dataset(std::move(ctx), "SELECT * FROM level0", 0, true);
}

}  // namespace taco
