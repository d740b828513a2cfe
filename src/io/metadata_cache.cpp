#include "io/metadata_cache.hpp"
#include "io/stable_hash.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <system_error>

namespace fs = std::filesystem;

namespace taco::io {
namespace {

constexpr std::string_view kMagic = "TACOCORE-METADATA-CACHE 1\n";
constexpr std::string_view kSuffix = ".tacometa";

// A stable file name for a key (the key itself is stored and compared on lookup).
std::string key_name(const std::string& key) {
    return stable_hash_hex(key) + std::string(kSuffix);
}

bool write_all(int fd, const char* p, size_t n) {
    while (n > 0) {
        const ssize_t w = ::write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        p += w;
        n -= static_cast<size_t>(w);
    }
    return true;
}

}  // namespace

fs::path metadata_cache_dir() {
    if (const char* d = std::getenv("TACOCORE_CACHE_DIR"); d && *d) return d;
    if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return fs::path(x) / "tacocore";
    if (const char* h = std::getenv("HOME"); h && *h) return fs::path(h) / ".cache" / "tacocore";
    return fs::temp_directory_path() / "tacocore-cache";
}

bool metadata_cache_enabled() {
    const char* d = std::getenv("TACOCORE_CACHE_DIR");
    if (!d) return true;
    const std::string v(d);
    return v != "off" && v != "0" && v != "none";
}

namespace {

struct Entry {
    RemoteIdentity identity;
    HeldRanges ranges;
};

// The entry stored for `key`, whatever version of the file it is for.
std::optional<Entry> read_entry(const std::string& key) {
    if (!metadata_cache_enabled()) return std::nullopt;
    std::ifstream in(metadata_cache_dir() / key_name(key), std::ios::binary);
    if (!in) return std::nullopt;
    std::string magic(kMagic.size(), '\0');
    if (!in.read(magic.data(), static_cast<std::streamsize>(magic.size())) || magic != kMagic)
        return std::nullopt;
    std::string line;
    if (!std::getline(in, line)) return std::nullopt;
    try {
        const nlohmann::json j = nlohmann::json::parse(line);
        if (j.at("key").get<std::string>() != key) return std::nullopt;
        const RemoteIdentity identity{j.at("size").get<uint64_t>(), j.at("etag").get<std::string>(),
                                      j.at("last_modified").get<std::string>()};
        HeldRanges out;
        for (const auto& r : j.at("ranges")) {
            const uint64_t offset = r.at(0).get<uint64_t>();
            const uint64_t size = r.at(1).get<uint64_t>();
            if (offset > identity.size || identity.size - offset < size) return std::nullopt;
            std::string bytes(static_cast<size_t>(size), '\0');
            if (!in.read(bytes.data(), static_cast<std::streamsize>(size))) return std::nullopt;
            out.emplace_back(offset, std::move(bytes));
        }
        if (in.peek() != std::char_traits<char>::eof()) return std::nullopt;  // longer: damaged
        return Entry{identity, std::move(out)};
    } catch (const nlohmann::json::exception&) {
        return std::nullopt;
    }
}

}  // namespace

std::optional<HeldRanges> cache_lookup(const std::string& key, const RemoteIdentity& identity) {
    if (!identity.validatable()) return std::nullopt;
    auto entry = read_entry(key);
    if (!entry || !(entry->identity == identity)) return std::nullopt;
    return std::move(entry->ranges);
}

void cache_store(const std::string& key, const RemoteIdentity& identity, const HeldRanges& ranges) {
    if (!metadata_cache_enabled() || !identity.validatable()) return;
    std::error_code ec;
    const fs::path dir = metadata_cache_dir();
    fs::create_directories(dir, ec);
    if (ec) return;
    nlohmann::json j;
    j["key"] = key;
    j["size"] = identity.size;
    j["etag"] = identity.etag;
    j["last_modified"] = identity.last_modified;
    j["ranges"] = nlohmann::json::array();
    for (const auto& [offset, bytes] : ranges) j["ranges"].push_back({offset, bytes.size()});
    const std::string head = std::string(kMagic) + j.dump() + "\n";
    // A temporary name of this process, renamed over the entry at the end: readers see the old
    // entry or the new one, never a partial file, whatever other processes do at the same time.
    std::string tmp = (dir / (key_name(key) + ".XXXXXX")).string();
    const int fd = ::mkstemp(tmp.data());
    if (fd < 0) return;
    bool ok = write_all(fd, head.data(), head.size());
    for (const auto& range : ranges)
        ok = ok && write_all(fd, range.second.data(), range.second.size());
    ok = ::close(fd) == 0 && ok;
    if (ok) fs::rename(tmp, dir / key_name(key), ec);
    if (!ok || ec) fs::remove(tmp, ec);
}

size_t clear_metadata_cache() {
    std::error_code ec;
    size_t removed = 0;
    const fs::path dir = metadata_cache_dir();
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.find(kSuffix) == std::string::npos) continue;  // only our own files
        if (fs::remove(entry.path(), ec)) ++removed;
    }
    return removed;
}

namespace {

// An entry holding the whole file in one range (what fetch_whole_cached stores).
bool whole_file(const std::optional<Entry>& entry) {
    return entry && entry->identity.validatable() && entry->ranges.size() == 1 &&
           entry->ranges[0].first == 0 && entry->ranges[0].second.size() == entry->identity.size;
}

}  // namespace

std::shared_ptr<RemoteSource> cached_whole_unvalidated(const Location& location) {
    auto entry = read_entry(location.vsi);
    if (!whole_file(entry)) return nullptr;
    return RemoteSource::from_bytes(location, entry->identity, std::move(entry->ranges[0].second));
}

std::shared_ptr<RemoteSource> fetch_whole_cached(const Location& location,
                                                 const std::string& what) {
    if (is_plain_http(location)) {
        // One conditional GET: 304 when the cached copy is current, else the whole file.
        auto entry = read_entry(location.vsi);
        const bool usable = whole_file(entry);
        WholeFile got = http_get_whole(location, usable ? &entry->identity : nullptr);
        if (got.not_modified) {
            return RemoteSource::from_bytes(location, entry->identity,
                                            std::move(entry->ranges[0].second));
        }
        auto src = RemoteSource::from_bytes(location, got.identity, std::move(got.bytes));
        cache_store(location.vsi, src->identity(), src->held());
        return src;
    }
    auto src = RemoteSource::open(location);
    if (auto cached = cache_lookup(location.vsi, src->identity())) {
        for (auto& [offset, bytes] : *cached) src->hold(offset, std::move(bytes));
    }
    const bool hit = !src->held().empty() || src->size() == 0;
    src->prefetch(0, src->size(), what);
    if (!hit) cache_store(location.vsi, src->identity(), src->held());
    return src;
}

}  // namespace taco::io
