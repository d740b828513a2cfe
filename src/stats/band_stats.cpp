// Dataset::band_stats: pools the per-sample `geotiff:stats` rows of the current view (or of its
// descendants at a deeper level) into one summary per band. Unlike tacoreader, the rows are the
// view's: sql() and filter_* narrow the statistics too.
#include <algorithm>
#include <cmath>
#include <limits>

#include "metadata/duckdb_session.hpp"
#include "metadata/result_table.hpp"
#include "model/column_names.hpp"
#include "query/cascade.hpp"
#include "query/dataset_context.hpp"
#include "query/error_text.hpp"
#include "query/lifetime.hpp"
#include "taco/dataset.hpp"
#include "taco/errors.hpp"
#include "taco/stats.hpp"

namespace taco {
namespace {

using metadata::quote_literal;

constexpr const char* kStats = "geotiff:stats";
// Valid pixels per band, written by tacocore beside geotiff:stats (geotiff_stats.hpp).
constexpr const char* kValidCount = "geotiff:stats_valid_count";
constexpr size_t kValid = 4;  // valid-pixel percentage in the continuous layout

std::string column_list(const std::vector<ColumnType>& cols) {
    std::string out;
    for (const ColumnType& c : cols) {
        if (is_internal_column(c.name)) continue;
        out += (out.empty() ? "" : ", ") + c.name;
    }
    return out;
}

const ColumnType* find(const std::vector<ColumnType>& cols, const std::string& name) {
    for (const ColumnType& c : cols)
        if (c.name == name) return &c;
    return nullptr;
}

struct Row {
    std::string id;
    std::vector<std::vector<double>> bands;
    double pixels = 1;
    // Valid pixels per band when the row has geotiff:stats_valid_count (else empty).
    std::vector<double> valid_counts;
    // The weight of `band`: its valid-pixel count when known, else `pixels` (H x W from
    // stac:tensor_shape, or 1) times the stored valid% (`valid_share`, 1 when unknown).
    double weight(size_t band, double valid_share) const {
        if (band < valid_counts.size() && std::isfinite(valid_counts[band]))
            return valid_counts[band];
        return pixels * valid_share;
    }
};

}  // namespace

std::vector<BandSummary> Dataset::band_stats(const std::vector<size_t>& bands, size_t level,
                                             const std::string& id) const {
    life_->check("stats");
    const std::string where = path().string() + ": stats";
    if (bands.empty()) throw QueryError(where + ": no band given");
    if (level >= level_count()) {
        throw QueryError(where + ": level " + std::to_string(level) + " does not exist; the " +
                         "dataset has levels 0.." + std::to_string(level_count() - 1));
    }
    // The rows: the view itself at level 0; deeper, the descendants of its rows (the cascade's
    // survivors when there is one), under the sample `id` of level `level - 1` when given.
    std::string rows = view_sql_;
    if (level == 0 && !id.empty()) {
        rows = "SELECT * FROM (\n" + rows + "\n) WHERE id = " + quote_literal(id);
    }
    for (size_t k = 1; k <= level; ++k) {
        if (k == level && !id.empty()) {
            rows = "SELECT * FROM (\n" + rows + "\n) WHERE id = " + quote_literal(id);
        }
        const std::string base = cascade_ && !cascade_->level_sql(k).empty()
                                     ? cascade_->level_sql(k)
                                     : "SELECT * FROM level" + std::to_string(k);
        rows = "SELECT * FROM (\n" + base +
               "\n) WHERE \"internal:parent_id\" IN (SELECT \"internal:current_id\" FROM (\n" +
               rows + "\n))";
    }
    std::vector<Row> table;
    {
        std::lock_guard lock(ctx_->db_mutex);
        std::vector<ColumnType> cols;
        try {
            cols = metadata::describe_query(ctx_->db, rows);
        } catch (const QueryError& e) {
            query::rethrow_query(*ctx_, e, rows);  // the view is the user's (stats --where)
        }
        const ColumnType* stats = find(cols, kStats);
        if (!stats) {
            throw QueryError(where + ": level " + std::to_string(level) + " has no column '" +
                             kStats + "' (write it with GeotiffStats / taco create --stats); " +
                             "the columns are: " + column_list(cols));
        }
        if (!stats->type.is_list() || !stats->type.element().is_list()) {
            throw SchemaError(where + ": column '" + kStats + "' has type " +
                              stats->type.arrow_name() + ", expected list<list<float>>");
        }
        const bool has_id = find(cols, "id") != nullptr;
        const ColumnType* shape = find(cols, "stac:tensor_shape");
        const std::string pixels =
            shape && shape->type.is_list()
                ? "CASE WHEN len(\"stac:tensor_shape\") >= 2 THEN "
                  "CAST(list_extract(\"stac:tensor_shape\", -2) AS DOUBLE) * "
                  "CAST(list_extract(\"stac:tensor_shape\", -1) AS DOUBLE) ELSE 1 END"
                : "1.0";
        const ColumnType* counts = find(cols, kValidCount);
        const std::string count_sql = counts && counts->type.is_list()
                                          ? "CAST(\"" + std::string(kValidCount) + "\" AS DOUBLE[])"
                                          : "CAST(NULL AS DOUBLE[])";
        std::shared_ptr<const metadata::ResultTable> result;
        try {
            result = metadata::ResultTable::fetch(
                ctx_->db, "SELECT " + std::string(has_id ? "CAST(id AS VARCHAR)" : "NULL") +
                              ", CAST(\"geotiff:stats\" AS DOUBLE[][]), CAST(" + pixels +
                              " AS DOUBLE), " + count_sql + " FROM (\n" + rows + "\n)");
        } catch (const QueryError& e) {
            query::rethrow_query(*ctx_, e, rows);
        }
        for (size_t r = 0; r < result->rows(); ++r) {
            if (result->is_null(r, 1)) continue;
            Row row;
            row.id = result->is_null(r, 0) ? "at row " + std::to_string(r)
                                           : "'" + std::string(result->get_string(r, 0)) + "'";
            const Value cell = result->get_value(r, 1);  // outlives the loop over its list
            for (const Value& band : cell.as_list()) {
                std::vector<double> values;
                if (!band.is_null()) {
                    for (const Value& v : band.as_list()) {
                        values.push_back(v.is_null() ? std::numeric_limits<double>::quiet_NaN()
                                                     : v.as_double());
                    }
                }
                row.bands.push_back(std::move(values));
            }
            if (row.bands.empty()) continue;
            row.pixels = result->is_null(r, 2) ? 1.0 : result->get_double(r, 2);
            if (!result->is_null(r, 3)) {
                const Value c = result->get_value(r, 3);
                for (const Value& v : c.as_list()) {
                    row.valid_counts.push_back(
                        v.is_null() ? std::numeric_limits<double>::quiet_NaN() : v.as_double());
                }
            }
            table.push_back(std::move(row));
        }
    }
    if (table.empty()) {
        throw QueryError(where + ": no row of the view has '" + std::string(kStats) + "' values (" +
                         "all NULL or empty, or the view is empty)");
    }
    std::vector<BandSummary> out;
    for (size_t band : bands) {
        BandSummary s;
        s.band = band;
        // Every row must have the band and the same layout for it.
        size_t length = 0, first_position = 0;
        const Row* first = nullptr;
        for (size_t position = 0; position < table.size(); ++position) {
            const Row& row = table[position];
            if (band >= row.bands.size()) {
                throw QueryError(where + ": band " + std::to_string(band) +
                                 " is out of range: sample " + row.id + " has " +
                                 std::to_string(row.bands.size()) + " bands (0.." +
                                 std::to_string(row.bands.size() - 1) + ")");
            }
            const size_t n = row.bands[band].size();
            if (!first) {
                first = &row;
                first_position = position;
                length = n;
            } else if (n != length) {
                // Below level 0 ids repeat under each parent: rows are also named by position,
                // and the way out is to pool one sample id (tacoreader asks for it there).
                const bool deep = level > 0 && id.empty();
                auto named = [&](const Row& r, size_t at) {
                    return "sample " + r.id + (deep ? " (row " + std::to_string(at) + ")" : "");
                };
                throw SchemaError(
                    where + ": '" + std::string(kStats) + "' of band " + std::to_string(band) +
                    " has " + std::to_string(n) + " values in " + named(row, position) + " but " +
                    std::to_string(length) + " in " + named(*first, first_position) +
                    "; every row must use the same layout" +
                    (deep ? ". Level " + std::to_string(level) +
                                " holds samples of different layouts under different parents: "
                                "pass id='...' (a sample id of level " +
                                std::to_string(level - 1) +
                                ") to pool the children of one "
                                "of them, as tacoreader requires there"
                          : ""));
            }
        }
        if (length == 0) {
            throw SchemaError(where + ": '" + std::string(kStats) + "' of band " +
                              std::to_string(band) + " is empty in sample " + first->id);
        }
        s.categorical = length != kContinuousStats;
        double total = 0;
        if (s.categorical) {
            s.probabilities.assign(length, 0.0);
            for (const Row& row : table) {
                const std::vector<double>& p = row.bands[band];
                if (!std::all_of(p.begin(), p.end(), [](double v) { return std::isfinite(v); }))
                    continue;
                const double w = row.weight(band, 1.0);
                if (!(w > 0)) continue;
                for (size_t k = 0; k < length; ++k) s.probabilities[k] += w * p[k];
                total += w;
                ++s.samples;
            }
            if (total > 0)
                for (double& p : s.probabilities) p /= total;
            out.push_back(std::move(s));
            continue;
        }
        std::vector<StatsRow> pooled;
        s.min = std::numeric_limits<double>::infinity();
        s.max = -s.min;
        double weighted_mean = 0;
        for (const Row& row : table) {
            const std::vector<double>& v = row.bands[band];
            const double valid = std::isfinite(v[kValid]) ? v[kValid] / 100.0 : 1.0;
            const double w = row.weight(band, valid);
            if (!(w > 0) || !std::isfinite(v[2])) continue;  // no valid pixel
            if (std::isfinite(v[0])) s.min = std::min(s.min, v[0]);
            if (std::isfinite(v[1])) s.max = std::max(s.max, v[1]);
            weighted_mean += w * v[2];
            total += w;
            pooled.push_back({&v, w});
            ++s.samples;
        }
        if (total <= 0) {
            const double nan = std::numeric_limits<double>::quiet_NaN();
            s.min = s.max = s.mean = s.std = s.p25 = s.p50 = s.p75 = s.p95 = nan;
            out.push_back(std::move(s));
            continue;
        }
        s.mean = weighted_mean / total;
        // Pooled standard deviation: within-sample variance plus the spread of the means. The
        // stored stds are population stds (ddof=0: GDAL's, which tacotoolbox writes, and
        // tacocore's GeotiffStats), for which N*var = sum n_i*(std_i^2 + (mean_i - mean)^2) is
        // exact; it also stays right when the weights are relative (1 per sample without
        // stac:tensor_shape), where a (n_i - 1) form would drop the within-sample part.
        double sum = 0;
        for (const StatsRow& r : pooled) {
            const std::vector<double>& v = *r.values;
            const double sd = std::isfinite(v[3]) ? v[3] : 0.0;
            sum += r.weight * (sd * sd + (v[2] - s.mean) * (v[2] - s.mean));
        }
        s.std = std::sqrt(sum / total);
        s.p25 = pooled_quantile(pooled, 0.25);
        s.p50 = pooled_quantile(pooled, 0.50);
        s.p75 = pooled_quantile(pooled, 0.75);
        s.p95 = pooled_quantile(pooled, 0.95);
        out.push_back(std::move(s));
    }
    return out;
}

}  // namespace taco
