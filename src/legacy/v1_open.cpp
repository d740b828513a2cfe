// load_legacy(): a v1 file as a Dataset. The level tables are built from the FOOTERs at open
// (v1_tables.cpp); sample bytes stay where they are, addressed like a ZIP's (/vsisubfile/).
#include <filesystem>

#include "format/collection_schema.hpp"
#include "format/dataset_open.hpp"
#include "io/location.hpp"
#include "legacy/v1_access.hpp"
#include "legacy/v1_collection.hpp"
#include "legacy/v1_parts.hpp"
#include "legacy/v1_tables.hpp"
#include "query/dataset_context.hpp"
#include "query/sandbox.hpp"
#include "taco/errors.hpp"
#include "taco/legacy.hpp"

namespace fs = std::filesystem;

namespace taco {
namespace {

bool has_v1_suffix(const std::string& s) {
    auto ends = [&](const std::string& suffix) {
        return s.size() >= suffix.size() &&
               s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    return ends(".taco") || ends(".tortilla");
}

Dataset load_part(const std::string& path, const LoadOptions& options, uint64_t& partitions) {
    // Samples are named as GDAL reads them: /vsisubfile/…,/vsicurl/https://… for a remote
    // file, as a remote ZIP's are; locally through the path's SQL root (non-UTF-8 names).
    const legacy::V1File file = legacy::V1File::open(path);
    const std::shared_ptr<io::ByteSource>& source = file.source;
    std::vector<std::shared_ptr<const paths::PathAnchor>> anchors;
    const std::string vsi_root =
        io::is_remote(path) ? file.gdal_path : format::sql_root(path, anchors);
    metadata::DuckSession db;
    legacy::V1Tables tables = legacy::read_v1_tables(db, *source, path);
    partitions = tables.header.partitions;
    format::OpenedDataset opened;
    opened.path = path;
    opened.format = ContainerFormat::Zip;  // samples are byte ranges of one file, as in a ZIP
    opened.vsi_root = vsi_root;
    opened.anchors = std::move(anchors);
    opened.archive = source;
    opened.collection = format::read_collection_document(
        legacy::v2_collection_json(tables, path, db), path + ": COLLECTION (mapped from v1)");
    query::StagedLevels staged;
    for (size_t i = 0; i < tables.levels.size(); ++i) {
        format::LevelSource level;
        level.name = "level" + std::to_string(i) + " (built from the v1 FOOTERs)";
        level.file = tables.levels[i]->proc_path();
        staged.files.push_back(level.file.string());
        staged.bytes.push_back(std::move(tables.levels[i]));
        opened.levels.push_back(std::move(level));
    }
    opened.legacy_folders = std::move(tables.folders);
    auto ctx = query::make_context(std::move(opened), std::move(staged), std::move(db));
    query::apply_load_options(*ctx, options);
    return Dataset(std::move(ctx), "SELECT * FROM level0", 0, true);
}

}  // namespace

bool is_legacy_v1_file(const fs::path& path) {
    std::string s = path.string();
    while (s.size() > 1 && s.back() == '/') s.pop_back();
    if (has_v1_suffix(s)) return true;
    return !io::is_remote(s) && legacy::has_v1_magic(s);
}

Dataset load_legacy(const fs::path& path, const LoadOptions& options) {
    const std::string s = path.string();
    if (!options.base_path.empty()) {
        throw FormatError(s +
                          ": base_path applies to a TACOCAT collection index (.tacocat/ or "
                          "__TACOCAT__) only");
    }
    const bool remote = io::is_remote(s);
    std::vector<std::string> parts = remote ? std::vector<std::string>{s} : legacy::local_parts(s);
    uint64_t partitions = 1;
    std::vector<Dataset> loaded;
    loaded.push_back(load_part(parts[0], options, partitions));
    if (remote && legacy::is_part_name(s)) {
        parts = legacy::remote_parts(s, partitions);
        if (parts[0] != s) {  // the first part is another file: start from it
            loaded.clear();
            loaded.push_back(load_part(parts[0], options, partitions));
        }
    }
    if (parts.size() != partitions) {
        std::string found;
        for (const auto& p : parts) found += (found.empty() ? "" : ", ") + p;
        throw FormatError(parts[0] + ": multi-part v1 dataset: the header says " +
                          std::to_string(partitions) + " data partition(s), but " +
                          std::to_string(parts.size()) + " file(s) were found (" + found +
                          "); expected " + std::to_string(partitions) +
                          " files named <name>.NNNN.part.<taco|tortilla>");
    }
    if (parts.size() == 1) return std::move(loaded[0]);
    for (size_t i = 1; i < parts.size(); ++i) {
        uint64_t n = 0;
        loaded.push_back(load_part(parts[i], options, n));
        if (n != partitions) {
            throw FormatError(parts[i] + ": its header says " + std::to_string(n) +
                              " data partitions, but " + parts[0] + " says " +
                              std::to_string(partitions) + ": parts of different datasets");
        }
    }
    return concat(loaded, ColumnMode::FillMissing);
}

}  // namespace taco
