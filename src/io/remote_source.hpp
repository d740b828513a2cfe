// Remote bytes through GDAL's VSI (/vsicurl/, /vsis3/, /vsigs/, /vsiaz/, ...): the one remote
// io::ByteSource, plus whole-file reads for FOLDER datasets. Every request has a timeout and
// failures become IoErrors naming the URL and the HTTP status. GDAL stays behind this header.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "io/byte_source.hpp"
#include "io/location.hpp"

namespace taco::io {

/// What identifies one version of a remote file: its size and the validators the server sent.
struct RemoteIdentity {
    uint64_t size = 0;
    std::string etag;
    std::string last_modified;

    /// A cache may trust this identity only when the server sent a validator.
    bool validatable() const { return !etag.empty() || !last_modified.empty(); }
    bool operator==(const RemoteIdentity&) const = default;
};

/// A remote file opened with one HEAD request. Reads go through GDAL; ranges fetched with
/// `prefetch` (or given with `hold`) are kept and served from memory.
class RemoteSource final : public ByteSource {
  public:
    ~RemoteSource() override;
    const std::string& name() const override { return location_.text; }
    uint64_t size() const override { return identity_.size; }
    void read_at(uint64_t offset, void* buf, size_t n, const std::string& what) const override;
    void prefetch(uint64_t offset, uint64_t n, const std::string& what) const override;
    void drop_prefetched() const override;

    /// Keeps `bytes` as the content at `offset` (from the metadata cache): no request for it.
    void hold(uint64_t offset, std::string bytes) const;
    /// The ranges kept so far, as (offset, bytes).
    std::vector<std::pair<uint64_t, std::string>> held() const;
    const RemoteIdentity& identity() const { return identity_; }
    const Location& location() const { return location_; }

    /// Opens `location` (remote): one HEAD. IoError on 404/403/timeouts, naming the URL.
    static std::shared_ptr<RemoteSource> open(const Location& location);
    /// A source over bytes already fetched (a whole file): no request ever.
    static std::shared_ptr<RemoteSource> from_bytes(const Location& location,
                                                    RemoteIdentity identity, std::string bytes);

  private:
    RemoteSource(Location location, RemoteIdentity identity, void* handle);
    bool from_held(uint64_t offset, void* buf, size_t n) const;
    void fetch(uint64_t offset, void* buf, size_t n, const std::string& what) const;
    // fetch() on this thread; fetch() moves it off a forked child's inherited thread.
    void fetch_here(uint64_t offset, void* buf, size_t n, const std::string& what) const;

    Location location_;
    RemoteIdentity identity_;
    mutable std::mutex mutex_;  // GDAL handles are not thread-safe; held_ is shared
    void* handle_;              // VSILFILE*
    mutable std::vector<std::pair<uint64_t, std::string>> held_;
};

/// A plain http(s) location (GDAL's /vsicurl/): whole files can be fetched in one GET.
bool is_plain_http(const Location& location);

/// One GET of a whole file over plain HTTP(S). With `known` (a cached version) the request is
/// conditional (If-None-Match / If-Modified-Since): `not_modified` and no bytes when it holds.
struct WholeFile {
    RemoteIdentity identity;
    std::string bytes;
    bool not_modified = false;
};
WholeFile http_get_whole(const Location& location, const RemoteIdentity* known);

/// Settings for every remote read below `vsi_prefix` (Python's storage_options): GDAL option
/// names, or the AWS/Google/Azure names users know (`aws_access_key_id`, `endpoint_url`,
/// `region`, ...), mapped as for the environment.
void set_remote_options(const std::string& vsi_prefix,
                        const std::map<std::string, std::string>& options);

/// Forgets what GDAL knows about remote files (sizes, cached blocks).
void clear_remote_state();

}  // namespace taco::io
