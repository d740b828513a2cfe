// Opening a remote dataset (http(s), s3, gs, az, /vsi...): a ZIP in three requests at most (HEAD,
// TACO_HEADER, then the level tables and COLLECTION.json in one merged range), a FOLDER by its
// known file names (COLLECTION.json, METADATA/levelN.parquet: no listing). Both go through the
// metadata cache, so a second open of an unchanged ZIP costs its HEAD only.
#include <algorithm>
#include <cctype>

#include "format/dataset_open.hpp"
#include "format/parquet_magic.hpp"
#include "io/location.hpp"
#include "io/metadata_cache.hpp"
#include "io/remote_source.hpp"
#include "paths/dataset_names.hpp"
#include "taco/errors.hpp"

namespace taco::format {
namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

bool ends_with(const std::string& s, std::string_view suffix) {
    return s.size() >= suffix.size() &&
           s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

OpenedDataset open_remote_zip(const io::Location& location) {
    auto src = io::RemoteSource::open(location);
    bool hit = false;
    if (auto cached = io::cache_lookup(location.vsi, src->identity())) {
        for (auto& [offset, bytes] : *cached) src->hold(offset, std::move(bytes));
        hit = true;
    }
    OpenedDataset out = open_zip_source(location.text, src, location.vsi);
    if (!hit) io::cache_store(location.vsi, src->identity(), src->held());
    return out;
}

// A warm open costs one request: the conditional GET of COLLECTION.json. Level tables in the
// cache are taken as they are and marked unverified; the reader validates them (one conditional
// request each, concurrently) before its first query, so nothing stale is ever served and an
// open that only looks at COLLECTION.json pays for nothing else. `eager` validates them here.
OpenedDataset open_remote_folder(const io::Location& location, bool eager) {
    OpenedDataset out;
    out.path = location.text;
    out.format = ContainerFormat::Folder;
    out.vsi_root = location.vsi;
    const auto collection =
        io::fetch_whole_cached(location.child("COLLECTION.json"), "COLLECTION.json");
    out.collection = read_collection_document(
        collection->read_string(0, static_cast<size_t>(collection->size()), "COLLECTION.json"),
        location.text + ": COLLECTION.json");
    for (size_t i = 0; i < expected_level_count(out.collection); ++i) {
        const std::string name = "METADATA/level" + std::to_string(i) + ".parquet";
        const io::Location where = location.child(name);
        std::optional<io::Location> unverified;
        std::shared_ptr<io::ByteSource> file;
        if (!eager) file = io::cached_whole_unvalidated(where);
        if (file) {
            unverified = where;
        } else {
            file = io::fetch_whole_cached(where, name);
        }
        const uint64_t size = file->size();
        require_parquet_bytes(*file, 0, size, location.text, name);
        out.levels.push_back({name, {}, 0, size, std::move(file), std::move(unverified)});
    }
    return out;
}

}  // namespace

size_t expected_level_count(const CollectionDocument& collection) {
    return std::max<size_t>(collection.pit.max_depth() + 1, collection.fields.size());
}

OpenedDataset open_remote_dataset(const std::filesystem::path& path, bool validate_all) {
    const io::Location location = io::parse_location(path.string());
    const std::string name = lower(std::string(location.path_part()));
    if (ends_with(name, ".taco") || ends_with(name, ".tortilla")) {
        throw FormatError(location.text +
                          ": legacy TACO v1 dataset (.taco / .tortilla); migrate it to a TACO 2 "
                          ".tacozip first");
    }
    if (paths::has_zip_suffix(name)) return open_remote_zip(location);
    // Neither suffix: a FOLDER when it has COLLECTION.json, else a ZIP under another name.
    try {
        return open_remote_folder(location, validate_all);
    } catch (const IoError& folder_error) {
        const std::string what = folder_error.what();
        if (what.find("COLLECTION.json") == std::string::npos ||
            what.find("HTTP 404") == std::string::npos) {
            throw;
        }
        try {
            return open_remote_zip(location);
        } catch (const Error& zip_error) {
            throw FormatError(location.text +
                              ": not a TACO dataset; expected a FOLDER with COLLECTION.json (" +
                              what + ") or a TACO ZIP (" + zip_error.what() + ")");
        }
    }
}

}  // namespace taco::format
