// The on-disk cache of remote metadata bytes (TACO_HEADER, level tables, COLLECTION.json), so a
// second open of an unchanged remote dataset costs one HEAD. Entries are keyed by the GDAL path
// and valid only for the identity (size + ETag / Last-Modified) they were fetched under; each is
// written to a temporary file and renamed, so concurrent processes never see half an entry.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "io/remote_source.hpp"

namespace taco::io {

using HeldRanges = std::vector<std::pair<uint64_t, std::string>>;

/// $TACOCORE_CACHE_DIR, else $XDG_CACHE_HOME/tacocore, else ~/.cache/tacocore.
std::filesystem::path metadata_cache_dir();

/// False when TACOCORE_CACHE_DIR is "off" / "0" / "none" (no reads, no writes).
bool metadata_cache_enabled();

/// The ranges cached for `key` under exactly `identity`; nullopt when absent, for another
/// version of the file, or unreadable (a damaged entry is a miss, never an error).
std::optional<HeldRanges> cache_lookup(const std::string& key, const RemoteIdentity& identity);

/// Stores `ranges` for `key`. Best effort: a read-only or full disk leaves no entry, no error.
/// Nothing is stored when the identity has no validator (the server sent no ETag/Last-Modified).
void cache_store(const std::string& key, const RemoteIdentity& identity, const HeldRanges& ranges);

/// Removes every entry (and stale temporary files); returns how many files were removed.
size_t clear_metadata_cache();

/// A whole remote file: from the cache when its identity still matches (one HEAD), else
/// fetched in one GET and cached. The returned source holds every byte in memory.
std::shared_ptr<RemoteSource> fetch_whole_cached(const Location& location, const std::string& what);

/// A whole remote file as the cache holds it, with no request: the bytes of the version last
/// fetched, for a caller that validates them (fetch_whole_cached) before they are used.
/// nullptr when the cache has no complete, validatable copy of the file.
std::shared_ptr<RemoteSource> cached_whole_unvalidated(const Location& location);

}  // namespace taco::io
