#include "collection/collection_open.hpp"

#include <system_error>

#include "collection/tacocat_file.hpp"
#include "format/collection_schema.hpp"
#include "io/byte_source.hpp"
#include "io/file.hpp"
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

// Parquet starts and ends with PAR1: a range pointing elsewhere is caught here, by name.
void check_parquet(const io::ByteSource& src, uint64_t offset, uint64_t size,
                   const std::string& where) {
    char head[4] = {}, tail[4] = {};
    if (size >= 12) {
        src.read_at(offset, head, 4, where);
        src.read_at(offset + size - 4, tail, 4, where);
    }
    if (size < 12 || std::string_view(head, 4) != "PAR1" || std::string_view(tail, 4) != "PAR1") {
        throw FormatError(src.name() + ": " + where + " (" + std::to_string(size) +
                          " bytes) is not a Parquet file (no PAR1 magic)");
    }
}

// A local directory is resolved as Path.resolve() does; a VSI path or URL is kept as given.
std::string parts_root_of(const fs::path& parts_dir, const std::string& base_path) {
    const bool remote =
        base_path.rfind("/vsi", 0) == 0 || base_path.find("://") != std::string::npos;
    std::string root =
        remote ? base_path
               : format::resolved_path(base_path.empty() ? parts_dir : fs::path(base_path));
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
        format::LevelSource level{".tacocat/" + file, where.index / file, 0, 0, nullptr};
        auto src = io::open_local_source(level.file);
        check_parquet(*src, 0, src->size(), level.name);
        out.levels.push_back(std::move(level));
    }
    if (out.levels.empty()) {
        throw FormatError(name +
                          ": level0.parquet not found (a .tacocat folder holds "
                          "COLLECTION.json and level0.parquet..)");
    }
    return out;
}

format::OpenedDataset open_file_index(const IndexLocation& where) {
    format::OpenedDataset out;
    out.archive = io::open_local_source(where.index);
    const io::ByteSource& src = *out.archive;
    uint8_t head[kTacocatHeaderSize];
    const size_t n = static_cast<size_t>(std::min<uint64_t>(src.size(), kTacocatHeaderSize));
    src.read_at(0, head, n, "__TACOCAT__ header");
    const TacocatHeader header = decode_tacocat_header(head, n, src.size(), src.name());
    for (size_t i = 0; i < header.levels.size(); ++i) {
        const auto [offset, size] = header.levels[i];
        format::LevelSource level{"level" + std::to_string(i) + ".parquet", {}, offset, size, nullptr};
        check_parquet(src, offset, size, level.name);
        out.levels.push_back(std::move(level));
    }
    const auto [coffset, csize] = header.collection;
    out.collection = format::read_collection_document(
        src.read_string(coffset, static_cast<size_t>(csize), "COLLECTION.json"),
        src.name() + ": COLLECTION.json");
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
    format::OpenedDataset out =
        where.layout == IndexLayout::Folder ? open_folder_index(where) : open_file_index(where);
    out.path = where.index;
    out.format = ContainerFormat::Zip;
    out.parts_root =
        parts_root_of(where.parts_dir.empty() ? fs::path(".") : where.parts_dir, base_path);
    out.vsi_root = out.parts_root.substr(0, out.parts_root.size() - 1);
    return out;
}

}  // namespace taco::collection
