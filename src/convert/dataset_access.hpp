// What export needs from a Dataset beyond its public API: the shared context (DuckDB connection,
// level views, archives) and the view's SQL and level. One friend, so the public class stays
// free of conversion internals.
#pragma once

#include <memory>
#include <string>

#include "query/lifetime.hpp"
#include "taco/dataset.hpp"
#include "taco/legacy.hpp"

namespace taco::convert {

struct DatasetAccess {
    static const std::shared_ptr<query::DatasetContext>& context(const Dataset& d) {
        d.life_->check("export");
        return d.ctx_;
    }
    /// ClosedError naming `what` (e.g. "dataset_card()") when `d` is closed.
    static void check_open(const Dataset& d, const char* what) { d.life_->check(what); }
    static const std::string& view_sql(const Dataset& d) { return d.view_sql_; }
    static size_t level(const Dataset& d) { return d.level_; }
    /// A legacy v1 file (`.taco`, `.tortilla`), read through load_legacy(): its samples are byte
    /// ranges as in a ZIP, but it is no ZIP and holds no Parquet file of its own.
    static bool legacy_v1(const Dataset& d) {
        const auto sources = d.sources();
        return !sources.empty() && is_legacy_v1_file(sources.front());
    }
};

}  // namespace taco::convert
