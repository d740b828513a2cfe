#include "query/cascade.hpp"

#include <atomic>

#include "model/column_names.hpp"
#include "query/dataset_context.hpp"
#include "taco/errors.hpp"

namespace taco::query {

const std::string& Cascade::level_sql(size_t k) const {
    static const std::string none;
    return k < levels_.size() ? levels_[k] : none;
}

bool shown_in_data(std::string_view name, bool cascade) {
    if (!is_internal_column(name) || name == "internal:gdal_vsi") return true;
    // A collection's rows also keep the part they come from (tacoreader's data after a cascade).
    return cascade && (name == "internal:current_id" || name == "internal:parent_id" ||
                       name == "internal:source_file");
}

std::shared_ptr<const metadata::ResultTable> Cascade::children(DatasetContext& ctx, size_t level,
                                                               int64_t parent_id) const {
    static std::atomic<uint64_t> serial{0};
    std::lock_guard db_lock(ctx.db_mutex);
    std::string table;
    {
        std::lock_guard lock(mutex_);
        if (tables_.size() < levels_.size()) tables_.resize(levels_.size());
        if (tables_[level].empty()) {
            const std::string name =
                "__taco_cascade_" + std::to_string(serial++) + "_level" + std::to_string(level);
            ctx.db.exec("CREATE TEMP TABLE " + name + " AS SELECT * FROM (\n" + levels_[level] +
                        "\n) ORDER BY \"internal:current_id\"");
            tables_[level] = name;
        }
        table = tables_[level];
    }
    // Every column of the level, internal ones included: tacoreader's children after a cascade
    // are rows of the level table (internal:offset / size / relative_path with them), not of a
    // __meta__.
    return metadata::ResultTable::fetch(
        ctx.db,
        "SELECT * FROM " + table + " WHERE \"internal:parent_id\" = " + std::to_string(parent_id));
}

}  // namespace taco::query
