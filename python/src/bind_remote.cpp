// Remote datasets in Python: per-location storage options and the metadata cache.
#include <nanobind/stl/filesystem.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/string.h>

#include "py_common.hpp"
#include "taco/remote.hpp"

namespace taco::py {

using namespace nb::literals;

void bind_remote(nb::module_& m) {
    m.def("is_remote", &is_remote_location, "location"_a,
          "Whether the location is read remotely (https, s3, gs, az, /vsi...).");
    m.def("set_remote_options", &set_remote_options, "location"_a, "options"_a,
          "Settings (GDAL or AWS/Google/Azure names) for reads of a remote location and below.");
    m.def(
        "cache_dir", [] { return metadata_cache_dir().string(); },
        "Where remote metadata is cached (TACOCORE_CACHE_DIR).");
    m.def("clear_cache", &clear_cache, nb::call_guard<nb::gil_scoped_release>(),
          "Removes every cached entry of remote metadata; returns how many files were removed.");
}

}  // namespace taco::py
