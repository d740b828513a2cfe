// Collection indexes (.tacocat/, __TACOCAT__, TACOLLECTION.json) for the Python package.
#include <nanobind/stl/filesystem.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "py_common.hpp"
#include "py_paths.hpp"
#include "taco/tacocat.hpp"

using namespace nb::literals;

namespace taco::py {

void bind_collection(nb::module_& m) {
    m.def(
        "create_tacocat",
        [](const std::vector<std::filesystem::path>& paths, const std::filesystem::path& output,
           const std::string& format) {
            const TacocatFormat f = parse_tacocat_format(format);
            std::filesystem::path written;
            {
                GilRelease release;
                written = create_tacocat(paths, output, f);
            }
            return fs_str(written);
        },
        "parts"_a, "output"_a, "format"_a = "folder",
        "Writes the collection index of TACO ZIP parts into the directory `output`.");
    m.def(
        "create_tacollection_file",
        [](const std::vector<std::filesystem::path>& paths, const std::filesystem::path& output) {
            std::filesystem::path written;
            {
                GilRelease release;
                written = create_tacollection_file(paths, output);
            }
            return fs_str(written);
        },
        "parts"_a, "output"_a, "Writes the merged COLLECTION.json of TACO ZIP parts at `output`.");
}

}  // namespace taco::py
