// Remote datasets in Python: per-location storage options and the metadata cache.
#include <nanobind/stl/filesystem.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/string.h>

#include "py_common.hpp"
#include "py_paths.hpp"
#include "taco/remote.hpp"

namespace taco::py {

using namespace nb::literals;

void bind_remote(nb::module_& m) {
    // A path argument (bytes and surrogate escapes taken): a local path that is not UTF-8 is
    // simply not remote (URLs are ASCII).
    m.def(
        "is_remote",
        [](const std::filesystem::path& location) { return is_remote_location(location.string()); },
        "location"_a, "Whether the location is read remotely (https, s3, gs, az, /vsi...).");
    m.def("set_remote_options", &set_remote_options, "location"_a, "options"_a,
          "Settings (GDAL or AWS/Google/Azure names) for reads of a remote location and below.");
    m.def(
        "cache_dir", [] { return fs_str(metadata_cache_dir()); },
        "Where remote metadata is cached (TACOCORE_CACHE_DIR).");
    m.def("clear_cache", &clear_cache, nb::call_guard<GilRelease>(),
          "Removes every cached entry of remote metadata; returns how many files were removed.");
}

}  // namespace taco::py
