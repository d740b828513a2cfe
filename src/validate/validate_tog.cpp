#include "validate/validate_tog.hpp"

#include <mutex>

#include "convert/dataset_access.hpp"
#include "metadata/result_table.hpp"
#include "query/dataset_context.hpp"
#include "taco/dataset.hpp"
#include "taco/errors.hpp"
#include "taco/tog.hpp"

namespace taco::convert {

void add_tog_findings(const std::filesystem::path& path, format::FindingSink& sink) {
    std::optional<Dataset> ds;
    try {
        ds = load(path);
    } catch (const Error&) {
        return;
    }
    query::DatasetContext& ctx = *DatasetAccess::context(*ds);
    for (size_t d = 0; d < ds->level_count(); ++d) {
        const std::string key = d == 0 ? "id" : "\"internal:relative_path\"";
        std::shared_ptr<const metadata::ResultTable> files;
        {
            std::lock_guard lock(ctx.db_mutex);
            files = metadata::ResultTable::fetch(
                ctx.db, "SELECT " + key + ", \"internal:gdal_vsi\" FROM level" + std::to_string(d) +
                            " WHERE type = 'FILE'");
        }
        const std::string table = "METADATA/level" + std::to_string(d) + ".parquet";
        for (size_t r = 0; r < files->rows(); ++r) {
            if (files->is_null(r, 0) || files->is_null(r, 1)) continue;
            const std::string sample(files->get_string(r, 0));
            const TogCheck check = check_tog(std::string(files->get_string(r, 1)));
            if (!check.is_geotiff) continue;
            const std::string where = table + " row " + std::to_string(r) + " (" + sample + ")";
            if (check.is_tog) {
                sink.info("tog.optimized", where, "a TACO-optimized GeoTIFF", table);
                continue;
            }
            std::string why;
            for (const std::string& p : check.problems) why += (why.empty() ? "" : "; ") + p;
            sink.warning("tog.not-optimized", where,
                         "a GeoTIFF but not TACO-optimized (taco cog converts it): " + why, table);
        }
    }
}

}  // namespace taco::convert
