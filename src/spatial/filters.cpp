// Dataset::filter_bbox and Dataset::filter_datetime: each turns its arguments into a SQL
// predicate over one level and hands it to Dataset::filtered, which makes the lazy view (level 0)
// or the cascade (deeper levels). Column choice and every check on the arguments happen here,
// at once; the predicate itself runs when rows are asked for.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "metadata/duckdb_session.hpp"
#include "metadata/result_table.hpp"
#include "model/column_names.hpp"
#include "query/cascade.hpp"
#include "query/dataset_context.hpp"
#include "query/lifetime.hpp"
#include "query/sql_compose.hpp"
#include "spatial/box_predicate.hpp"
#include "spatial/sql_functions.hpp"
#include "taco/dataset.hpp"
#include "taco/errors.hpp"

namespace taco {
namespace {

using metadata::quote_identifier;
using metadata::quote_literal;

constexpr const char* kCurrentId = "\"internal:current_id\"";
constexpr const char* kParentId = "\"internal:parent_id\"";

std::string number(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

std::string column_list(const std::vector<ColumnType>& cols) {
    std::string out;
    for (const ColumnType& c : cols) {
        if (is_internal_column(c.name)) continue;
        out += (out.empty() ? "" : ", ") + c.name;
    }
    return out.empty() ? "(none)" : out;
}

const ColumnType* find(const std::vector<ColumnType>& cols, const std::string& name) {
    for (const ColumnType& c : cols)
        if (c.name == name) return &c;
    return nullptr;
}

// The column a filter reads: `requested` when given (it must exist), else the first candidate
// the level has.
const ColumnType& choose_column(const std::vector<ColumnType>& cols, const std::string& requested,
                                const std::vector<std::string>& candidates, const char* what,
                                const char* kind, size_t level) {
    if (!requested.empty() && requested != "auto") {
        if (const ColumnType* c = find(cols, requested)) return *c;
        throw QueryError(std::string(what) + ": column '" + requested + "' not found at level " +
                         std::to_string(level) + "; the columns are: " + column_list(cols));
    }
    for (const std::string& name : candidates)
        if (const ColumnType* c = find(cols, name)) return *c;
    std::string expected;
    for (const std::string& name : candidates) expected += (expected.empty() ? "" : ", ") + name;
    throw QueryError(std::string(what) + ": level " + std::to_string(level) + " has no " + kind +
                     " column (looked for " + expected +
                     "); the columns are: " + column_list(cols) + ". Name one with " +
                     (std::string(kind) == "geometry" ? "geometry_col" : "time_col"));
}

// "istac:geometry" -> "istac:"; "" when the name has no prefix.
std::string prefix_of(const std::string& name) {
    const size_t colon = name.rfind(':');
    return colon == std::string::npos ? "" : name.substr(0, colon + 1);
}

bool ends_with(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// A time column as microseconds since the epoch (NULL when it holds no time).
std::string micros_expr(const ColumnType& c, const char* what) {
    const std::string q = quote_identifier(c.name);
    switch (c.type.id()) {
        case TypeId::Timestamp:
        case TypeId::TimestampTz:  // an instant: epoch_us counts from 1970-01-01 UTC either way
            return "epoch_us(" + q + ")";
        case TypeId::Date:  // its midnight (UTC, as the range's dates are)
            return "epoch_us(CAST(" + q + " AS TIMESTAMP))";
        case TypeId::Int32:
        case TypeId::Int64:
            return "CAST(" + q + " AS BIGINT)";
        case TypeId::String:
            // Text, or a DATE/TIME DuckDB reports as text. Read as an instant so a UTC offset in
            // it counts ("01:30+02:00" is 23:30Z); text without one is UTC, as the session's
            // zone is UTC (configure_reader_session).
            return "epoch_us(TRY_CAST(" + q + " AS TIMESTAMPTZ))";
        default:
            throw QueryError(std::string(what) + ": column '" + c.name + "' has type " +
                             c.type.arrow_name() +
                             ", expected a timestamp, a date, an integer of microseconds or text");
    }
}

}  // namespace

Dataset Dataset::filtered(const std::string& where, size_t level, const char* what) const {
    life_->check(what);
    if (level == 0) {
        Dataset out =
            derived(query::bind_data_view(view_sql_, "SELECT * FROM data WHERE " + where), 0);
        out.cascade_ = cascade_;  // a subset of the rows: the survivors below stay right
        return out;
    }
    // Each level from `level` up keeps the rows with a surviving child; a previous cascade's
    // survivors are the starting point, so cascades intersect.
    const size_t depth = std::max(level + 1, cascade_ ? cascade_->depth() : size_t{0});
    std::vector<std::string> survivors(depth);
    auto base = [&](size_t k) {
        if (cascade_ && !cascade_->level_sql(k).empty()) return cascade_->level_sql(k);
        return "SELECT * FROM level" + std::to_string(k);
    };
    survivors[level] = "SELECT * FROM (\n" + base(level) + "\n) WHERE " + where;
    for (size_t k = level - 1; k >= 1; --k) {
        survivors[k] = "SELECT * FROM (\n" + base(k) + "\n) WHERE " + kCurrentId + " IN (SELECT " +
                       kParentId + " FROM (\n" + survivors[k + 1] + "\n))";
    }
    // Deeper levels an earlier cascade pruned keep only the children of what survives now.
    for (size_t k = level + 1; k < depth; ++k) {
        if (!cascade_ || cascade_->level_sql(k).empty()) break;
        survivors[k] = "SELECT * FROM (\n" + cascade_->level_sql(k) + "\n) WHERE " + kParentId +
                       " IN (SELECT " + kCurrentId + " FROM (\n" + survivors[k - 1] + "\n))";
    }
    Dataset out =
        derived(query::bind_data_view(view_sql_, std::string("SELECT * FROM data WHERE ") +
                                                     kCurrentId + " IN (SELECT " + kParentId +
                                                     " FROM (\n" + survivors[1] + "\n))"),
                0);
    out.cascade_ = std::make_shared<query::Cascade>(std::move(survivors));
    return out;
}

namespace {

// The columns a filter at `level` sees, after checking the level exists and (cascade) that the
// ids linking the levels are there.
std::vector<ColumnType> level_columns_for(const Dataset& ds, query::DatasetContext& ctx,
                                          size_t level, const char* what) {
    if (level >= ds.level_count()) {
        throw QueryError(std::string(what) + ": level " + std::to_string(level) +
                         " does not exist; " + ds.path().string() + " has levels 0.." +
                         std::to_string(ds.level_count() - 1));
    }
    if (level == 0) return ds.columns();
    auto need = [&](const std::vector<ColumnType>& cols, const char* col, size_t at) {
        if (!find(cols, col)) {
            throw QueryError(std::string(what) + ": a filter at level " + std::to_string(level) +
                             " follows the samples up through '" + col + "', which level " +
                             std::to_string(at) + (at == 0 ? " (the current view)" : "") +
                             " does not have" +
                             (at == 0 ? "; keep it in the SELECT of sql()" : ""));
        }
    };
    need(ds.columns(), "internal:current_id", 0);
    std::vector<ColumnType> cols;
    {
        std::lock_guard lock(ctx.db_mutex);
        for (size_t k = 1; k <= level; ++k) {
            std::vector<ColumnType> at =
                metadata::describe_query(ctx.db, "SELECT * FROM level" + std::to_string(k));
            need(at, "internal:parent_id", k);
            if (k < level) need(at, "internal:current_id", k);
            if (k == level) cols = std::move(at);
        }
    }
    return cols;
}

}  // namespace

Dataset Dataset::filter_bbox(double minx, double miny, double maxx, double maxy,
                             const std::string& geometry_col, size_t level,
                             const std::string& crs) const {
    const char* what = "filter_bbox";
    life_->check("filter_bbox()");  // before the columns() it asks, which would name itself
    for (double v : {minx, miny, maxx, maxy}) {
        if (!std::isfinite(v)) {
            throw QueryError("filter_bbox: the box (" + number(minx) + ", " + number(miny) + ", " +
                             number(maxx) + ", " + number(maxy) +
                             ") has a bound that is not a finite number");
        }
    }
    bool geographic = false;
    if (!spatial::known_crs(crs, &geographic)) {
        throw QueryError("filter_bbox: crs '" + crs +
                         "' is not a CRS GDAL knows (expected e.g. EPSG:4326 or a WKT)");
    }
    const std::string box =
        "(" + number(minx) + ", " + number(miny) + ", " + number(maxx) + ", " + number(maxy) + ")";
    if (miny > maxy) {
        throw QueryError("filter_bbox: the box " + box + " is reversed: miny > maxy");
    }
    if (geographic) {
        if (miny < -90 || maxy > 90 || minx < -180 || minx > 180 || maxx < -180 || maxx > 180) {
            throw QueryError("filter_bbox: the box " + box + " is outside longitudes -180..180 / " +
                             "latitudes -90..90 of " + crs);
        }
    } else if (minx > maxx) {
        throw QueryError("filter_bbox: the box " + box + " is reversed: minx > maxx (only a " +
                         "geographic CRS may cross the antimeridian)");
    }
    const std::vector<ColumnType> cols = level_columns_for(*this, *ctx_, level, what);
    const ColumnType& geom =
        choose_column(cols, geometry_col, {"istac:geometry", "stac:centroid", "istac:centroid"},
                      what, "geometry", level);
    if (geom.type.id() != TypeId::Binary) {
        throw QueryError("filter_bbox: column '" + geom.name + "' has type " +
                         geom.type.arrow_name() + ", expected WKB (binary)");
    }
    // Where the geometry's CRS comes from: centroids are EPSG:4326 by definition (spec §7);
    // other geometries name theirs in the sibling `<prefix>:crs` column.
    std::string crs_expr = quote_literal("EPSG:4326");
    if (!ends_with(geom.name, ":centroid")) {
        const std::string crs_col = prefix_of(geom.name) + "crs";
        if (const ColumnType* c = find(cols, crs_col)) {
            if (c->type.id() != TypeId::String) {
                throw QueryError("filter_bbox: column '" + crs_col + "' has type " +
                                 c->type.arrow_name() + ", expected text naming a CRS");
            }
            crs_expr = quote_identifier(crs_col);
        }
    }
    // The sample named in errors ('' without an id column; NULL only when DuckDB probes: rows
    // with a NULL id are padding, hidden by the level views).
    const std::string id_expr = find(cols, "id") ? "CAST(\"id\" AS VARCHAR)" : "''";
    const std::string where =
        std::string(spatial::kBboxFunction) + "(" + quote_identifier(geom.name) + ", " + crs_expr +
        ", " + number(minx) + ", " + number(miny) + ", " + number(maxx) + ", " + number(maxy) +
        ", " + quote_literal(crs) + ", " + quote_literal(geom.name) + ", " + id_expr + ")";
    return filtered(where, level, what);
}

Dataset Dataset::filter_datetime(const std::string& range, const std::string& time_col,
                                 size_t level) const {
    TimeRange parsed;
    try {
        parsed = parse_time_range(range);
    } catch (const QueryError& e) {
        throw QueryError(std::string("filter_datetime: ") + e.what());
    }
    return filter_datetime(parsed, time_col, level);
}

Dataset Dataset::filter_datetime(const TimeRange& range, const std::string& time_col,
                                 size_t level) const {
    const char* what = "filter_datetime";
    life_->check("filter_datetime()");  // before the columns() it asks, which would name itself
    if (!range.start_us && !range.end_us) {
        throw QueryError(
            "filter_datetime: the range is open on both sides; give a start or an end");
    }
    if (range.start_us && range.end_us && *range.start_us > *range.end_us) {
        throw QueryError("filter_datetime: the range " + format_instant_us(*range.start_us) + "/" +
                         format_instant_us(*range.end_us) + " is reversed: its start is after " +
                         "its end");
    }
    const std::vector<ColumnType> cols = level_columns_for(*this, *ctx_, level, what);
    const ColumnType& start =
        choose_column(cols, time_col, {"istac:time_start", "stac:time_start"}, what, "time", level);
    const std::string s = micros_expr(start, what);
    // A `<prefix>:time_start` with a `<prefix>:time_end` beside it is an interval.
    std::string e = s;
    if (ends_with(start.name, ":time_start")) {
        if (const ColumnType* end = find(cols, prefix_of(start.name) + "time_end")) {
            e = "coalesce(" + micros_expr(*end, what) + ", " + s + ")";
        }
    }
    // A TIMESTAMP column is compared as itself with a constant (not through epoch_us), so DuckDB
    // pushes the test into the Parquet scan: row groups outside the range are skipped by their
    // statistics and the other columns are only materialised for the rows that pass.
    auto instant = [](int64_t us) {
        return "make_timestamp(CAST(" + std::to_string(us) + " AS BIGINT))";
    };
    const bool plain_timestamp = start.type.id() == TypeId::Timestamp;
    const std::string start_col = quote_identifier(start.name);
    std::string where;
    if (range.end_us) {
        where = plain_timestamp ? start_col + " <= " + instant(*range.end_us)
                                : s + " <= " + std::to_string(*range.end_us);
    }
    if (range.start_us) {
        where += (where.empty() ? "" : " AND ") +
                 (plain_timestamp && e == s ? start_col + " >= " + instant(*range.start_us)
                                            : e + " >= " + std::to_string(*range.start_us));
    }
    return filtered("(" + where + ")", level, what);
}

}  // namespace taco
