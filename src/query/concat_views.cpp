// The SQL of a concatenated dataset's views. Each part keeps its own views, registered in the
// concatenation's connection under a prefix (`p0_level0`, `p1_level0_table`, ...); the union
// views read from those, so nothing is materialized and each part's filters stay lazy.
#include "query/dataset_context.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "query/collection_views.hpp"

namespace taco::query {
namespace {

using metadata::quote_identifier;

constexpr const char* kCurrentId = "internal:current_id";
constexpr const char* kParentId = "internal:parent_id";
constexpr const char* kSourcePath = "internal:source_path";
constexpr const char* kSourceFile = "internal:source_file";

// The select list that turns part `k`'s rows at `level` into the union's columns: its own
// columns (ids shifted, integers widened), NULL for the ones it lacks, and its source path.
std::string part_select(const ConcatPlan& plan, size_t k, size_t level) {
    const ConcatPart& part = plan.parts[k];
    const std::vector<ColumnType>& own = part.columns[level];
    std::string select;
    for (const ColumnType& c : plan.columns[level]) {
        const std::string name = quote_identifier(c.name);
        std::string expr;
        if (c.name == kSourcePath) {
            // A part that is itself a concatenation carries the column; a collection gives its
            // parts' directory (as tacoreader), the part being internal:source_file; a dataset,
            // its file.
            expr = part.ctx->concat ? name
                   : part.ctx->parts
                       ? metadata::quote_literal(collection_source_path(*part.ctx->parts))
                       : root_sql(*part.ctx);
        } else if (!has_column(own, c.name)) {
            expr = "CAST(NULL AS " + c.type.sql_name() + ")";
        } else if (c.name == kCurrentId) {
            expr = "CAST(" + name + " AS BIGINT) + " + std::to_string(part.id_base[level]);
        } else if (c.name == kParentId && level > 0) {
            expr = "CAST(" + name + " AS BIGINT) + " + std::to_string(part.id_base[level - 1]);
        } else {
            expr = "CAST(" + name + " AS " + c.type.sql_name() + ")";
        }
        select += (select.empty() ? "" : ", ") + expr + " AS " + name;
    }
    return select;
}

// `branches` joined by UNION ALL.
std::string union_all(const std::vector<std::string>& branches, size_t lo, size_t hi) {
    std::string out;
    for (size_t i = lo; i < hi; ++i) out += (i > lo ? "\nUNION ALL\n" : "") + branches[i];
    return out;
}

// DuckDB parses a chain of N set operations N levels deep and refuses more than its
// max_expression_depth (1,000), so one chain caps a concatenation near 1,000 parts. Nesting the
// chain in parenthesized halves avoids the limit but loses rows in DuckDB 1.4.4 when the
// branches carry their own WITH clauses (tests/unit/test_concat_scale.cpp). So the chain is cut
// into views of at most this many branches, and the views are chained in turn: every statement
// DuckDB parses stays short, whatever the number of parts. Binding a chain costs more than
// linearly in its depth: 1,000 parts took 16 s with chains of 256, 10-12 s with 32, 13-14 s
// with 16 (ConcatScale.AThousandDatasets, release, slow machine).
constexpr size_t kBranchesPerView = 32;

}  // namespace

std::string part_prefix(const std::string& prefix, size_t k) {
    return prefix + "p" + std::to_string(k) + "_";
}

std::string concat_part_relation(const ConcatPart& part, size_t k, size_t level,
                                 const std::string& prefix) {
    const std::string own = part_prefix(prefix, k);
    const size_t levels = part.ctx->level_columns.size();
    if (level == 0 && part.filtered) {
        // The part's view names level{i} and level{i}_table; common table expressions point
        // those names at its registered views without touching the text of its query.
        std::string with;
        for (size_t i = 0; i < levels; ++i) {
            const std::string n = "level" + std::to_string(i);
            with += (with.empty() ? "WITH " : ", ") + n + "_table AS (SELECT * FROM " + own + n +
                    "_table), " + n + " AS (SELECT * FROM " + own + n + ")";
        }
        return with + " SELECT * FROM (\n" + part.view_sql + "\n)";
    }
    // A part's own table, as the union's level view computes internal:gdal_vsi and drops the
    // padding itself: an unfiltered part does not go through its level view (each branch through
    // it cost DuckDB's binder a CTE and a view more, ~2.5x the time of a 1,000-part concat).
    std::string sql = "SELECT * FROM " + own + "level" + std::to_string(level) + "_table";
    // A filtered view keeps only the children of the rows it kept (as the reference does); ids
    // are compared before shifting, inside the part. Without the id columns (older writers)
    // every row of the deeper level stays.
    if (part.filtered && has_column(part.columns[level], kParentId) &&
        has_column(part.columns[level - 1], kCurrentId)) {
        sql += " WHERE " + quote_identifier(kParentId) + " IN (SELECT " +
               quote_identifier(kCurrentId) + " FROM (\n" +
               concat_part_relation(part, k, level - 1, prefix) + "\n))";
    }
    return sql;
}

void define_concat_views(metadata::DuckSession& db, const ConcatPlan& plan, ContainerFormat format,
                         const std::string& prefix) {
    for (size_t level = 0; level < plan.columns.size(); ++level) {
        std::vector<std::string> branches;
        for (size_t k = 0; k < plan.parts.size(); ++k) {
            branches.push_back("SELECT " + part_select(plan, k, level) + " FROM (\n" +
                               concat_part_relation(plan.parts[k], k, level, prefix) + "\n)");
        }
        const std::string table = prefix + "level" + std::to_string(level) + "_table";
        for (size_t round = 0; branches.size() > kBranchesPerView; ++round) {
            std::vector<std::string> grouped;
            for (size_t lo = 0; lo < branches.size(); lo += kBranchesPerView) {
                const std::string name =
                    table + "_union" + std::to_string(round) + "_" + std::to_string(grouped.size());
                db.exec("CREATE VIEW " + name + " AS " +
                        union_all(branches, lo, std::min(lo + kBranchesPerView, branches.size())));
                grouped.push_back("SELECT * FROM " + name);
            }
            branches = std::move(grouped);
        }
        db.exec("CREATE VIEW " + table + " AS " + union_all(branches, 0, branches.size()));
        // A row of a collection reads its part: the directory joined with internal:source_file.
        const std::string source_path = quote_identifier(kSourcePath);
        const std::string source_file = quote_identifier(kSourceFile);
        const std::string root = has_column(plan.columns[level], kSourceFile)
                                     ? "CASE WHEN " + source_file + " IS NULL THEN " + source_path +
                                           " ELSE " + part_path_sql(source_path, source_file) +
                                           " END"
                                     : source_path;
        db.exec("CREATE VIEW " + prefix + "level" + std::to_string(level) + " AS " +
                level_view_sql(table, plan.columns[level], format, root, level, std::nullopt));
    }
}

}  // namespace taco::query
