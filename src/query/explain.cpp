#include "query/explain.hpp"

#include <vector>

#include "query/error_text.hpp"

namespace taco::query {
namespace {

void replace_all(std::string& s, const std::string& from, const std::string& to) {
    if (from.empty()) return;
    for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
        s.replace(at, from.size(), to);
}

}  // namespace

std::shared_ptr<const metadata::ResultTable> run_explain(DatasetContext& ctx,
                                                         const std::string& statement,
                                                         const std::string& user_query) {
    std::shared_ptr<const metadata::ResultTable> plan =
        metadata::ResultTable::fetch(ctx.db, statement);
    // The plan is a few text cells: cleaned here and handed back as a small VALUES table, so
    // callers get an ordinary result (DataFrame, Arrow) with DuckDB's column names and types.
    std::string values;
    for (size_t row = 0; row < plan->rows(); ++row) {
        values += row == 0 ? "(" : ", (";
        for (size_t col = 0; col < plan->columns(); ++col) {
            if (col > 0) values += ", ";
            if (plan->is_null(row, col)) {
                values += "NULL::VARCHAR";
                continue;
            }
            std::string text(plan->get_string(row, col));
            replace_all(text, statement, user_query);
            values += metadata::quote_literal(name_internal_paths(ctx, std::move(text), nullptr));
        }
        values += ")";
    }
    std::string names;
    for (const ColumnType& c : plan->schema())
        names += (names.empty() ? "" : ", ") + metadata::quote_identifier(c.name);
    if (values.empty()) return plan;  // no row: nothing to clean
    return metadata::ResultTable::fetch(
        ctx.db, "SELECT * FROM (VALUES " + values + ") AS plan(" + names + ")");
}

}  // namespace taco::query
