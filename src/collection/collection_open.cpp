#include "collection/collection_open.hpp"

#include <system_error>

#include "collection/tacocat_file.hpp"
#include "format/collection_schema.hpp"
#include "format/parquet_magic.hpp"
#include "io/byte_source.hpp"
#include "io/file.hpp"
#include "io/location.hpp"
#include "io/metadata_cache.hpp"
#include "io/remote_source.hpp"
#include "taco/errors.hpp"

namespace fs = std::filesystem;

namespace taco::collection {
namespace {

bool path_exists(const fs::path& p) {
    std::error_code ec;
    return fs::exists(p, ec);
}

bool path_is_directory(const fs::path& p) {
    std::error_code ec;
    return fs::is_directory(p, ec);
}

std::string trimmed(const fs::path& path) {
    std::string s = path.string();
    while (s.size() > 1 && s.back() == '/') s.pop_back();
    return s;
}

// A local directory is resolved as Path.resolve() does; a URL becomes the GDAL path that reads it
// (so `internal:gdal_vsi` opens in GDAL), a VSI path is kept as given.
std::string parts_root_of(const fs::path& parts_dir, const std::string& base_path,
                          format::OpenedDataset& out) {
    std::string root;
    if (io::is_remote(base_path)) {
        const std::string vsi = io::parse_location(base_path).vsi;
        const io::QuerySplit cut = io::split_query(vsi);
        root = cut.path;
        out.parts_query = cut.query;
    } else {
        root = format::sql_root(base_path.empty() ? parts_dir : fs::path(base_path), out.anchors);
    }
    if (root.empty() || root.back() != '/') root += '/';
    return root;
}

format::OpenedDataset open_folder_index(const IndexLocation& where) {
    format::OpenedDataset out;
    const std::string name = trimmed(where.index);
    const fs::path collection = where.index / "COLLECTION.json";
    if (!path_exists(collection)) {
        throw FormatError(name +
                          ": COLLECTION.json not found (a .tacocat folder holds "
                          "COLLECTION.json and level0.parquet..)");
    }
    {
        auto src = io::open_local_source(collection);
        out.collection = format::read_collection_document(
            src->read_string(0, static_cast<size_t>(src->size()), "COLLECTION.json"),
            name + "/COLLECTION.json");
    }
    // The reference probes level0..5 and keeps the contiguous run from 0.
    for (size_t i = 0; i < kTacocatMaxLevels; ++i) {
        const std::string file = "level" + std::to_string(i) + ".parquet";
        if (!path_exists(where.index / file)) break;
        format::LevelSource level{".tacocat/" + file, where.index / file, 0, 0, nullptr, {}};
        auto src = io::open_local_source(level.file);
        format::require_parquet_bytes(*src, 0, src->size(), src->name(), level.name);
        out.levels.push_back(std::move(level));
    }
    if (out.levels.empty()) {
        throw FormatError(name +
                          ": level0.parquet not found (a .tacocat folder holds "
                          "COLLECTION.json and level0.parquet..)");
    }
    return out;
}

// `__TACOCAT__`, local or remote: the header, then the level tables and COLLECTION.json (one
// merged range for a remote file: they lie together after the header).
format::OpenedDataset open_file_index(std::shared_ptr<io::ByteSource> archive) {
    format::OpenedDataset out;
    out.archive = std::move(archive);
    const io::ByteSource& src = *out.archive;
    uint8_t head[kTacocatHeaderSize];
    const size_t n = static_cast<size_t>(std::min<uint64_t>(src.size(), kTacocatHeaderSize));
    src.read_at(0, head, n, "__TACOCAT__ header");
    const TacocatHeader header = decode_tacocat_header(head, n, src.size(), src.name());
    uint64_t first = header.collection.first,
             end = header.collection.first + header.collection.second;
    for (const auto& [offset, size] : header.levels) {
        first = std::min(first, offset);
        end = std::max(end, offset + size);
    }
    src.prefetch(first, end - first, "__TACOCAT__ level tables and COLLECTION.json");
    for (size_t i = 0; i < header.levels.size(); ++i) {
        const auto [offset, size] = header.levels[i];
        format::LevelSource level{
            "level" + std::to_string(i) + ".parquet", {}, offset, size, nullptr, {}};
        format::require_parquet_bytes(src, offset, size, src.name(), level.name);
        out.levels.push_back(std::move(level));
    }
    const auto [coffset, csize] = header.collection;
    out.collection = format::read_collection_document(
        src.read_string(coffset, static_cast<size_t>(csize), "COLLECTION.json"),
        src.name() + ": COLLECTION.json");
    return out;
}

// A remote `.tacocat/` by its known names (no listing): COLLECTION.json, then as many level
// tables as its PIT is deep, each one GET (conditional when cached).
format::OpenedDataset open_remote_folder_index(const io::Location& index) {
    format::OpenedDataset out;
    const auto collection =
        io::fetch_whole_cached(index.child("COLLECTION.json"), "COLLECTION.json");
    out.collection = format::read_collection_document(
        collection->read_string(0, static_cast<size_t>(collection->size()), "COLLECTION.json"),
        index.text + "/COLLECTION.json");
    for (size_t i = 0; i < format::expected_level_count(out.collection); ++i) {
        const std::string file = "level" + std::to_string(i) + ".parquet";
        auto source = io::fetch_whole_cached(index.child(file), ".tacocat/" + file);
        format::LevelSource level{".tacocat/" + file, {}, 0, source->size(), source, {}};
        format::require_parquet_bytes(*source, 0, source->size(), source->name(), level.name);
        out.levels.push_back(std::move(level));
    }
    return out;
}

}  // namespace

std::optional<IndexLocation> find_index(const fs::path& path) {
    const fs::path p = trimmed(path);
    const std::string leaf = p.filename().string();
    if (leaf == kTacocatFolderName) {
        if (!path_exists(p)) throw IoError("cannot open '" + p.string() + "': no such directory");
        return IndexLocation{IndexLayout::Folder, p, p.parent_path()};
    }
    if (leaf == kTacocatFileName) {
        if (!path_exists(p)) throw IoError("cannot open '" + p.string() + "': no such file");
        if (path_is_directory(p)) {
            throw FormatError(p.string() +
                              ": __TACOCAT__ is a directory; expected the single "
                              "TACOCAT index file");
        }
        return IndexLocation{IndexLayout::File, p, p.parent_path()};
    }
    if (!path_is_directory(p) || path_exists(p / "COLLECTION.json")) return std::nullopt;
    if (path_exists(p / kTacocatFolderName / "COLLECTION.json")) {
        return IndexLocation{IndexLayout::Folder, p / kTacocatFolderName, p};
    }
    if (path_exists(p / kTacocatFileName)) {
        return IndexLocation{IndexLayout::File, p / kTacocatFileName, p};
    }
    return std::nullopt;
}

format::OpenedDataset open_index(const IndexLocation& where, const std::string& base_path) {
    format::OpenedDataset out = where.layout == IndexLayout::Folder
                                    ? open_folder_index(where)
                                    : open_file_index(io::open_local_source(where.index));
    out.path = where.index;
    out.format = ContainerFormat::Zip;
    out.parts_root =
        parts_root_of(where.parts_dir.empty() ? fs::path(".") : where.parts_dir, base_path, out);
    out.vsi_root = out.parts_root.substr(0, out.parts_root.size() - 1);
    return out;
}

std::optional<IndexLayout> remote_index_layout(std::string_view location) {
    const io::Location parsed = io::parse_location(location);
    std::string_view s = parsed.remote() ? io::split_query(parsed.vsi).path : location;
    while (s.size() > 1 && s.back() == '/') s.remove_suffix(1);
    const std::string_view leaf = s.substr(s.rfind('/') + 1);
    if (leaf == kTacocatFolderName) return IndexLayout::Folder;
    if (leaf == kTacocatFileName) return IndexLayout::File;
    return std::nullopt;
}

format::OpenedDataset open_remote_index(const io::Location& index, IndexLayout layout,
                                        const std::string& base_path) {
    format::OpenedDataset out = layout == IndexLayout::Folder
                                    ? open_remote_folder_index(index)
                                    : open_file_index(io::RemoteSource::open(index));
    out.path = index.text;
    out.format = ContainerFormat::Zip;
    // The parts lie beside the index: its location without the last component (and without its
    // query string, which each part is asked with after its name).
    const io::QuerySplit cut = io::split_query(index.vsi);
    const std::string root =
        base_path.empty() ? std::string(cut.path.substr(0, cut.path.rfind('/'))) : base_path;
    out.parts_root = parts_root_of({}, root, out);
    if (base_path.empty()) out.parts_query = cut.query;
    out.vsi_root = out.parts_root.substr(0, out.parts_root.size() - 1);
    return out;
}

}  // namespace taco::collection
