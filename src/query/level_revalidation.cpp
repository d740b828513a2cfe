#include "query/level_revalidation.hpp"

#include <future>

#include "format/parquet_magic.hpp"
#include "io/metadata_cache.hpp"
#include "io/trace.hpp"
#include "query/load_checks.hpp"
#include "taco/errors.hpp"

namespace taco::query {
namespace {

using metadata::quote_literal;

std::string column_list(const std::vector<ColumnType>& cols) {
    std::string out;
    for (const ColumnType& c : cols)
        out += (out.empty() ? "" : ", ") + c.name + " " + c.type.arrow_name();
    return out;
}

// Level `i` of `ctx` re-pointed at `fresh` (the server's current bytes of the table).
void swap_in(DatasetContext& ctx, size_t i, const std::shared_ptr<io::RemoteSource>& fresh) {
    format::OpenedDataset& src = ctx.source;
    format::LevelSource& level = src.levels[i];
    format::require_parquet_bytes(*fresh, 0, fresh->size(), src.path.string(), level.name);
    auto mem = std::make_unique<io::MemFd>("taco-level");
    fresh->copy_to_fd(0, fresh->size(), mem->fd(), level.name);
    const std::string file = mem->proc_path();
    const std::vector<ColumnType> columns =
        metadata::describe_query(ctx.db, "SELECT * FROM read_parquet(" + quote_literal(file) + ")");
    if (!(columns == ctx.level_columns[i])) {
        throw IoError(src.path.string() + ": " + level.name +
                      " changed on the server since it was cached, and its columns with it (" +
                      column_list(columns) + " instead of " + column_list(ctx.level_columns[i]) +
                      "); load the dataset again to read the new version");
    }
    if (i == 0) {
        check_root_count(src, ctx.db, file);
        check_level0_ids(src, ctx.db, file);
    }
    // The old bytes stay open with the context: DuckDB caches Parquet footers by path, and a
    // closed descriptor's /proc/self/fd/N could come back for another table.
    ctx.level_bytes.push_back(std::move(mem));
    ctx.level_files[i] = file;
    // Defined as load defines it (its float columns still hide the file's min/max). The
    // source is recorded last: should this fail, the next query fetches and swaps again.
    define_level_table(ctx.db, ctx, i, "", true);
    level.source = fresh;
    level.size = fresh->size();
}

}  // namespace

void ensure_levels_current(DatasetContext& ctx) {
    if (ctx.unverified_levels.empty()) return;
    io::TraceScope trace("revalidate cached level tables");
    std::vector<std::future<std::shared_ptr<io::RemoteSource>>> checks;
    for (size_t i : ctx.unverified_levels) {
        const format::LevelSource& level = ctx.source.levels[i];
        checks.push_back(
            std::async(std::launch::async, [where = *level.unverified, name = level.name] {
                return io::fetch_whole_cached(where, name);
            }));
    }
    std::vector<std::shared_ptr<io::RemoteSource>> current;
    for (auto& check : checks) current.push_back(check.get());  // rethrows the first failure
    for (size_t k = 0; k < current.size(); ++k) {
        const size_t i = ctx.unverified_levels[k];
        const auto* cached =
            dynamic_cast<const io::RemoteSource*>(ctx.source.levels[i].source.get());
        if (!cached || !(cached->identity() == current[k]->identity())) swap_in(ctx, i, current[k]);
    }
    for (size_t i : ctx.unverified_levels) ctx.source.levels[i].unverified.reset();
    ctx.unverified_levels.clear();
}

}  // namespace taco::query
