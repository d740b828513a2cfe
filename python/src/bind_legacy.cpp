// Legacy v1 files (include/taco/legacy.hpp) for the Python package: tacocore.migrate is in
// tacocore/_legacy.py; tacocore.load opens v1 files through the core's load().
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "export_result.hpp"
#include "py_common.hpp"
#include "py_paths.hpp"
#include "taco/errors.hpp"
#include "taco/legacy.hpp"

using namespace nb::literals;

namespace taco::py {

void bind_legacy(nb::module_& m) {
    m.def(
        "migrate_v1",
        [](const std::filesystem::path& input, const std::filesystem::path& output,
           const std::string& format, bool overwrite, const std::string& level_codec) {
            return write_without_gil(
                export_options(format, overwrite, level_codec),
                [&](const ExportOptions& opts) { return migrate(input, output, opts); });
        },
        "input"_a, "output"_a, "format"_a = "auto", "overwrite"_a = false,
        "level_codec"_a = "lz4_raw",
        "A legacy v1 file (.tortilla / .taco) rewritten as a TACO 2.0 dataset.");
    m.def(
        "is_legacy_v1",
        [](const std::filesystem::path& path) { return is_legacy_v1_file(path.string()); },
        "path"_a, "True for a Tortilla 0.5 / TACO 0.2 file (by name or magic bytes).");
}

}  // namespace taco::py
