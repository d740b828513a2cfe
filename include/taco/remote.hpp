// Remote datasets (https, s3, gs, az, GDAL /vsi... paths): per-location settings and the on-disk
// metadata cache. `taco::load` accepts remote locations directly; these are the knobs around it.
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <string>

namespace taco {

/// Whether `location` is read remotely (a URL with a scheme other than file://, or a GDAL
/// network path such as /vsis3/...).
bool is_remote_location(const std::string& location);

/// Settings for every read of `location` and the files under it (Python's storage_options):
/// GDAL configuration names (AWS_S3_ENDPOINT, GDAL_HTTP_TIMEOUT, ...) or the names of the AWS /
/// Google / Azure SDKs and obstore (aws_access_key_id, endpoint_url, region, skip_signature,
/// account_name, ...). They apply to this process from now on. IoError for a local location.
void set_remote_options(const std::string& location,
                        const std::map<std::string, std::string>& options);

/// Where remote metadata is cached: $TACOCORE_CACHE_DIR, else $XDG_CACHE_HOME/tacocore, else
/// ~/.cache/tacocore. TACOCORE_CACHE_DIR=off disables the cache.
std::filesystem::path metadata_cache_dir();
/// False when TACOCORE_CACHE_DIR is "off", "0" or "none": nothing is read from or written to
/// the cache, and metadata_cache_dir() names no directory in use.
bool metadata_cache_enabled();

/// Removes every cached entry (other processes' included) and forgets what GDAL knows about
/// remote files in this process. Returns the number of files removed.
size_t clear_cache();

}  // namespace taco
