// Collection indexes (.tacocat/, __TACOCAT__, TACOLLECTION.json) for the Python package.
#include <nanobind/stl/filesystem.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "py_common.hpp"
#include "taco/tacocat.hpp"

using namespace nb::literals;

namespace taco::py {

void bind_collection(nb::module_& m) {
    m.def(
        "create_tacocat",
        [](const std::vector<std::string>& parts, const std::string& output,
           const std::string& format) {
            const TacocatFormat f = parse_tacocat_format(format);
            const std::vector<std::filesystem::path> paths(parts.begin(), parts.end());
            nb::gil_scoped_release release;
            return create_tacocat(paths, output, f).string();
        },
        "parts"_a, "output"_a, "format"_a = "folder",
        "Writes the collection index of TACO ZIP parts into the directory `output`.");
    m.def(
        "create_tacollection",
        [](const std::vector<std::string>& parts, const std::string& output) {
            const std::vector<std::filesystem::path> paths(parts.begin(), parts.end());
            nb::gil_scoped_release release;
            return create_tacollection(paths, output).string();
        },
        "parts"_a, "output"_a, "Writes output/TACOLLECTION.json for TACO ZIP parts.");
}

}  // namespace taco::py
