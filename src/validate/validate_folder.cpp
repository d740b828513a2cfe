// FOLDER container checks (FORMAT.md §3): COLLECTION.json, METADATA/levelN.parquet, a file or
// directory under DATA/ for every row, a __meta__ in every FOLDER, and nothing unaccounted for.
#include <system_error>
#include <unordered_set>

#include "format/dataset_open.hpp"
#include "io/contained_path.hpp"
#include "io/file.hpp"
#include "paths/path_anchor.hpp"
#include "taco/errors.hpp"
#include "validate/validate_checks.hpp"
#include "validate/validate_tables.hpp"

namespace fs = std::filesystem;

namespace taco::format {
namespace {

std::string read_text(const fs::path& p) {
    io::File f = io::File::open_read(p);
    std::string text(static_cast<size_t>(f.size()), '\0');
    if (!text.empty()) f.read_at(0, text.data(), text.size());
    return text;
}

// Every row's file or directory exists; returns the DATA/-relative paths the tables account for.
std::unordered_set<std::string> check_data_tree(TableChecks& t, const fs::path& data) {
    std::unordered_set<std::string> expected;
    std::error_code ec;
    const std::string root = resolved_path(data.parent_path());
    for (const LevelRows& L : t.levels) {
        if (!L.rows) break;
        for (size_t r = 0; r < L.size_rows(); ++r) {
            const std::string& rel = L.paths[r];
            // A hostile id ('..', reported by the row checks) must not make us look outside.
            if (!io::unsafe_relative_path(rel).empty()) continue;
            const fs::path p = data / rel;
            if (fs::symlink_status(p, ec).type() != fs::file_type::not_found &&
                !io::resolves_inside(p, root)) {
                expected.insert(rel);
                t.sink.error("folder.outside", L.where(r),
                             "DATA/" + rel +
                                 " is a symbolic link (or lies under one) that leads outside the "
                                 "dataset; readers refuse it",
                             L.name);
                continue;
            }
            if (L.is_folder(r)) {
                expected.insert(rel);
                expected.insert(rel + "/__meta__");
                if (!fs::is_directory(p, ec)) {
                    t.sink.error("folder.missing-file", L.where(r),
                                 "no directory DATA/" + rel + " for this FOLDER sample", L.name);
                } else if (!fs::is_regular_file(p / "__meta__", ec)) {
                    t.sink.error("folder.missing-file", L.where(r),
                                 "no DATA/" + rel + "/__meta__ for this FOLDER sample", L.name);
                }
            } else {
                expected.insert(rel);
                if (!fs::is_regular_file(p, ec)) {
                    t.sink.error("folder.missing-file", L.where(r),
                                 "no file DATA/" + rel + " for this FILE sample", L.name);
                } else if (L.is_padding(r)) {
                    // Readers hide padding, and these bytes with it (check_padding_row, ZIP).
                    const uintmax_t bytes = fs::file_size(p, ec);
                    if (!ec && bytes != 0) {
                        t.sink.error("row.padding", L.where(r),
                                     "padding is empty, but DATA/" + rel + " holds " +
                                         std::to_string(bytes) +
                                         " bytes; a real sample needs an id that does not start "
                                         "with '__'",
                                     L.name);
                    }
                }
            }
        }
    }
    return expected;
}

void check_unreferenced(TableChecks& t, const fs::path& data,
                        const std::unordered_set<std::string>& expected) {
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(data, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        const std::string rel = it->path().lexically_relative(data).generic_string();
        if (expected.count(rel)) continue;
        t.sink.warning("folder.unreferenced", "DATA/" + rel,
                       "no level table row accounts for this " +
                           std::string(it->is_directory(ec) ? "directory" : "file"),
                       "folder.unreferenced");
        if (it->is_directory(ec)) it.disable_recursion_pending();
    }
}

}  // namespace

void validate_folder(const fs::path& path, FindingSink& sink, metadata::DuckSession& db,
                     const ValidateOptions&) {
    std::error_code ec;
    std::optional<CollectionDocument> collection;
    const fs::path collection_path = path / "COLLECTION.json";
    if (fs::is_regular_file(collection_path, ec)) {
        collection = check_collection(sink, read_text(collection_path), "COLLECTION.json");
    } else if (fs::exists(collection_path, ec)) {
        sink.error("collection.unreadable", "COLLECTION.json",
                   "is not a regular file (a FIFO, device, socket or directory)");
    } else {
        sink.error("collection.missing", "COLLECTION.json", "the dataset has no COLLECTION.json");
    }

    // DuckDB reads the tables through this spelling of `path` (/proc/self/fd/N when it is not
    // UTF-8, paths/path_anchor.hpp); findings name them relative to the dataset.
    const paths::SqlPath sql_dir = paths::anchor_path(path);
    const fs::path sql_base(sql_dir.text);
    TableChecks t{sink, db, ContainerFormat::Folder, {}};
    const fs::path metadata = path / "METADATA";
    for (size_t i = 0;; ++i) {
        const fs::path file = metadata / ("level" + std::to_string(i) + ".parquet");
        if (!fs::is_regular_file(file, ec)) {
            if (fs::exists(file, ec)) {
                sink.error("table.unreadable", "METADATA/level" + std::to_string(i) + ".parquet",
                           "is not a regular file (a FIFO, device, socket or directory)");
            }
            break;
        }
        LevelRows L;
        L.name = "METADATA/level" + std::to_string(i) + ".parquet";
        L.parquet = (sql_base / "METADATA" / file.filename()).string();
        const bool ok = load_level(t, L, i);
        t.levels.push_back(std::move(L));
        if (!ok) break;
    }
    if (t.levels.empty()) {
        sink.error("table.missing", "METADATA/level0.parquet", "the dataset has no level 0 table");
        return;
    }
    if (!t.levels[0].rows) return;
    check_level_rows(t);
    check_pit(t);
    if (collection) check_collection_schemas(t, *collection);

    const fs::path data = path / "DATA";
    if (!fs::is_directory(data, ec)) {
        sink.error("folder.missing-file", "DATA", "the dataset has no DATA directory");
        return;
    }
    const auto expected = check_data_tree(t, data);
    std::vector<MetaFile> metas;
    for (size_t d = 0; d < t.levels.size(); ++d) {
        const LevelRows& L = t.levels[d];
        if (!L.rows) break;
        for (size_t r = 0; r < L.size_rows(); ++r) {
            const fs::path meta = data / L.paths[r] / "__meta__";
            if (L.is_folder(r) && fs::is_regular_file(meta, ec)) {
                metas.push_back({d, r, "DATA/" + L.paths[r] + "/__meta__",
                                 (sql_base / "DATA" / L.paths[r] / "__meta__").string()});
            }
        }
    }
    check_meta_files(t, metas, nullptr);
    check_unreferenced(t, data, expected);
}

}  // namespace taco::format
