// EXPLAIN and EXPLAIN ANALYZE through sql(): DuckDB runs the statement as composed (the EXPLAIN
// outside `WITH data AS (...)`), and the plan text is made fit for users before anyone sees it.
#pragma once

#include <memory>
#include <string>

#include "metadata/result_table.hpp"
#include "query/dataset_context.hpp"

namespace taco::query {

/// Runs the EXPLAIN `statement` (bind_data_view's output) and returns its rows, usually one:
/// (explain_key, explain_value). In the plan text, the statement EXPLAIN ANALYZE echoes is
/// replaced by `user_query` (what the user wrote), and the descriptor paths of level tables by
/// their names (name_internal_paths). QueryError as ResultTable::fetch; the caller holds the
/// session's mutex.
std::shared_ptr<const metadata::ResultTable> run_explain(DatasetContext& ctx,
                                                         const std::string& statement,
                                                         const std::string& user_query);

}  // namespace taco::query
