#include "query/sandbox.hpp"

#include <cmath>
#include <string>

#include "model/utf8.hpp"
#include "taco/errors.hpp"

namespace taco::query {

void check_load_options(const LoadOptions& options, const std::string& path) {
    if (!std::isfinite(options.timeout) || options.timeout < 0) {
        throw QueryError(path + ": timeout must be a number of seconds >= 0 (0: no limit), not " +
                         std::to_string(options.timeout));
    }
}

void apply_load_options(DatasetContext& ctx, const LoadOptions& options) {
    ctx.query_timeout = options.timeout;
    std::string memory = options.memory_limit;
    if (memory.empty() && options.sandbox) memory = kSandboxMemoryLimit;
    std::lock_guard lock(ctx.db_mutex);  // settings only: the level tables are not read here
    if (!memory.empty()) {
        try {
            ctx.db.exec("SET memory_limit = " + metadata::quote_literal(memory));
        } catch (const QueryError& e) {
            throw QueryError(
                ctx.name() + ": memory_limit '" + memory +
                "' is not a size DuckDB understands (e.g. \"512MB\", \"2GB\"): " + e.what());
        }
    }
    if (!options.sandbox) return;
    // What the views and navigation read through descriptors: a ZIP's tables and every
    // `__meta__` copied to memory, and a directory whose path is not UTF-8 (it cannot be a SQL
    // literal) through its anchor (paths/path_anchor.hpp).
    ctx.db.exec("SET allowed_directories = ['/proc/self/fd/']");
    if (ctx.source.format == ContainerFormat::Folder) {
        // A FOLDER dataset's level tables by name, not its directory: a directory let a query
        // read any file through a symbolic link placed in the dataset (`root -> /`). Its
        // `__meta__` files are read through in-memory copies (navigation.cpp), as a ZIP's are.
        std::string files;
        for (const std::string& file : ctx.level_files) {
            if (file.rfind("/proc/self/fd/", 0) == 0 || !model::is_valid_utf8(file)) continue;
            files += (files.empty() ? "" : ", ") + metadata::quote_literal(file);
        }
        if (!files.empty()) ctx.db.exec("SET allowed_paths = [" + files + "]");
    }
    ctx.sandboxed = true;
    ctx.db.exec("SET enable_external_access = false");
    ctx.db.exec("SET allow_community_extensions = false");
    ctx.db.exec("SET lock_configuration = true");
}

io::Deadline query_deadline(DatasetContext& ctx) {
    ctx.timed_out = false;
    return io::Deadline(ctx.query_timeout, [c = &ctx] {
        c->timed_out = true;
        c->db.interrupt();
    });
}

}  // namespace taco::query
