// The public remote knobs (include/taco/remote.hpp) over io::Location, io::RemoteSource and the
// metadata cache.
#include "io/location.hpp"
#include "io/metadata_cache.hpp"
#include "io/remote_source.hpp"
#include "taco/errors.hpp"
#include "taco/remote.hpp"

namespace taco {

bool is_remote_location(const std::string& location) {
    return io::is_remote(location);
}

void set_remote_options(const std::string& location,
                        const std::map<std::string, std::string>& options) {
    const io::Location where = io::parse_location(location);
    if (!where.remote()) {
        throw IoError("'" + location +
                      "' is a local path; storage options apply to remote "
                      "locations (https://, s3://, gs://, az://)");
    }
    // Object stores: the options are the bucket's (as obstore's are the store's); GDAL also
    // looks credentials up again at bucket level when a request is refused.
    std::string prefix = where.vsi;
    if (!io::is_http_vsi(prefix)) {
        const size_t bucket = prefix.find('/', 1) + 1;
        const size_t end = prefix.find('/', bucket);
        if (end != std::string::npos) prefix = prefix.substr(0, end);
    }
    io::set_remote_options(prefix, options);
}

std::filesystem::path metadata_cache_dir() {
    return io::metadata_cache_dir();
}

bool metadata_cache_enabled() {
    return io::metadata_cache_enabled();
}

size_t clear_cache() {
    io::clear_remote_state();
    return io::clear_metadata_cache();
}

}  // namespace taco
