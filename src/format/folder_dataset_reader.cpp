// Opening a FOLDER dataset (FORMAT.md §3): COLLECTION.json plus METADATA/level0..N.parquet,
// contiguous from 0 (the reference stops at the first missing level).
#include <system_error>

#include "format/collection_parse.hpp"
#include "format/dataset_open.hpp"
#include "format/parquet_magic.hpp"
#include "io/file.hpp"
#include "taco/errors.hpp"

namespace fs = std::filesystem;

namespace taco::format {
namespace {

std::string read_whole(const fs::path& p) {
    io::File f = io::File::open_read(p);
    std::string text(static_cast<size_t>(f.size()), '\0');
    if (!text.empty()) f.read_at(0, text.data(), text.size());
    return text;
}

}  // namespace

OpenedDataset open_folder_dataset(const fs::path& path) {
    OpenedDataset out;
    out.path = path;
    out.format = ContainerFormat::Folder;
    out.vsi_root = sql_root(path, out.anchors);
    const std::string name = path.string();
    std::error_code ec;

    const fs::path collection = path / "COLLECTION.json";
    if (!fs::exists(collection, ec)) {
        throw FormatError(name + ": COLLECTION.json not found (expected " + collection.string() +
                          ")");
    }
    const uintmax_t collection_size = fs::file_size(collection, ec);
    if (!ec) check_json_size(collection_size, name + ": COLLECTION.json");
    out.collection = read_collection_document(read_whole(collection), name + ": COLLECTION.json");

    const fs::path metadata = path / "METADATA";
    if (!fs::is_directory(metadata, ec)) {
        throw FormatError(name + ": METADATA directory not found (expected " + metadata.string() +
                          "/level0.parquet)");
    }
    for (size_t i = 0;; ++i) {
        const std::string file = "level" + std::to_string(i) + ".parquet";
        if (!fs::exists(metadata / file, ec)) break;
        out.levels.push_back({"METADATA/" + file, metadata / file, 0, 0, nullptr, {}});
    }
    if (out.levels.empty()) {
        if (fs::exists(metadata / "level0.avro", ec)) {
            throw FormatError(name +
                              ": METADATA/level0.avro is the Avro metadata of tacotoolbox "
                              "before November 2025, which TACO 2 readers no longer read; "
                              "re-create the dataset with a current writer");
        }
        throw FormatError(name + ": METADATA/level0.parquet not found (expected " +
                          (metadata / "level0.parquet").string() + ")");
    }
    for (const LevelSource& level : out.levels) {
        const auto file = io::open_local_source(level.file);
        require_parquet_bytes(*file, 0, file->size(), name, level.name);
    }
    return out;
}

}  // namespace taco::format
