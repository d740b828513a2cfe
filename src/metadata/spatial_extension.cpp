#include "metadata/spatial_extension.hpp"

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <mutex>

#include "taco/errors.hpp"

#ifndef TACO_DUCKDB_EXTENSION_DIR
#define TACO_DUCKDB_EXTENSION_DIR ""
#endif

namespace taco::metadata {
namespace {

std::mutex g_mutex;
std::string g_path;  // set_spatial_extension_path

bool is_file(const std::string& p) {
    std::error_code ec;
    return !p.empty() && std::filesystem::is_regular_file(p, ec);
}

bool word_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

}  // namespace

void set_spatial_extension_path(const std::string& path) {
    std::lock_guard lock(g_mutex);
    g_path = path;
}

std::string spatial_extension_path() {
    if (const char* env = std::getenv("TACO_DUCKDB_SPATIAL"); env && *env) {
        return std::string(env) == "off" ? "" : env;  // "off": behave as if not installed
    }
    {
        std::lock_guard lock(g_mutex);
        if (is_file(g_path)) return g_path;
    }
    const std::string bundled =
        std::string(TACO_DUCKDB_EXTENSION_DIR) + "/v1.4.4/linux_amd64/spatial.duckdb_extension";
    if (!std::string(TACO_DUCKDB_EXTENSION_DIR).empty() && is_file(bundled)) return bundled;
    return "";
}

bool calls_spatial_function(const std::string& sql) {
    char quote = 0;
    for (size_t i = 0; i + 3 < sql.size(); ++i) {
        const char c = sql[i];
        if (quote) {
            if (c == quote) quote = 0;
            continue;
        }
        if (c == '\'' || c == '"') {
            quote = c;
            continue;
        }
        if ((c != 's' && c != 'S') || (sql[i + 1] != 't' && sql[i + 1] != 'T') ||
            sql[i + 2] != '_' || (i > 0 && word_char(sql[i - 1]))) {
            continue;
        }
        size_t j = i + 3;
        while (j < sql.size() && word_char(sql[j])) ++j;
        while (j < sql.size() && std::isspace(static_cast<unsigned char>(sql[j]))) ++j;
        if (j > i + 3 && j < sql.size() && sql[j] == '(') return true;
    }
    return false;
}

void load_spatial_extension(DuckSession& db) {
    std::shared_ptr<void>& loaded = db.module_state("spatial_extension");
    if (loaded) return;
    const std::string path = spatial_extension_path();
    if (path.empty()) {
        throw QueryError(
            "the query calls ST_* functions, which need DuckDB's spatial extension; it is not "
            "installed: pip install " +
            std::string(kSpatialPackage) +
            " (make setup does), or set TACO_DUCKDB_SPATIAL to a spatial.duckdb_extension file "
            "built for DuckDB 1.4.4. filter_bbox works without it");
    }
    if (!is_file(path)) {
        throw QueryError("TACO_DUCKDB_SPATIAL names " + path + ", which is not a file");
    }
    std::string quoted = "'";
    for (char c : path) quoted += c == '\'' ? std::string("''") : std::string(1, c);
    try {
        db.exec("LOAD " + quoted + "'");
    } catch (const QueryError& e) {
        throw QueryError("cannot load DuckDB's spatial extension from " + path + ": " + e.what());
    }
    loaded = std::make_shared<int>(1);
}

}  // namespace taco::metadata
