// Legacy v1 files (include/taco/legacy.hpp) for the Python package: tacocore.migrate is in
// tacocore/_legacy.py; tacocore.load opens v1 files through the core's load(). V1File and
// write_tortilla serve tacocore.v1, tacoreader's v1 API (src/legacy/v1_access.hpp): one
// tortilla's FOOTER bytes at a time, and Tortilla 0.5 files written from byte ranges.
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include "export_result.hpp"
#include "legacy/v1_access.hpp"
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

    nb::class_<legacy::V1File>(m, "V1File",
                               "A legacy v1 file opened for tacocore.v1 (local path or URL).")
        .def_static(
            "open",
            [](const std::string& location) {
                GilRelease release;
                return legacy::V1File::open(location);
            },
            "location"_a, "Opens a v1 file (local path or URL); TacoIOError when it is missing.")
        .def_prop_ro(
            "gdal_path", [](const legacy::V1File& f) { return f.gdal_path; },
            "How GDAL names the file: a local path as given, a remote one as its /vsi path.")
        .def_prop_ro(
            "size", [](const legacy::V1File& f) { return f.source->size(); }, "Bytes in the file.")
        .def(
            "tortilla",
            [](const legacy::V1File& f, uint64_t base, uint64_t length, const std::string& what,
               bool nested, bool footer) {
                legacy::StoredTortilla t;
                {
                    GilRelease release;
                    t = legacy::read_stored_tortilla(f, base, length, what, nested, footer);
                }
                nb::dict out;
                out["kind"] = legacy::to_string(t.header.kind);
                out["footer_offset"] = base + t.header.footer_offset;
                out["partitions"] = t.header.partitions;
                out["footer"] = nb::bytes(t.footer.data(), t.footer.size());
                if (t.header.kind == legacy::V1Kind::Taco)
                    out["collection"] = nb::bytes(t.collection.data(), t.collection.size());
                return out;
            },
            "base"_a, "length"_a, "what"_a, "nested"_a, "footer"_a = true,
            "{kind, footer_offset (absolute), partitions, footer (Parquet bytes; empty unless "
            "`footer`), collection (TACO 0.2 only)} of the tortilla at `base` (`length` 0: to "
            "the end of the file).")
        .def(
            "read",
            [](const legacy::V1File& f, uint64_t offset, uint64_t length) {
                std::string bytes;
                {
                    GilRelease release;
                    bytes = f.source->read_string(offset, length, "sample bytes");
                }
                return nb::bytes(bytes.data(), bytes.size());
            },
            "offset"_a, "length"_a, "The bytes [offset, offset + length) of the file.");
    m.def(
        "write_tortilla",
        [](const std::filesystem::path& output,
           const std::vector<std::tuple<std::string, uint64_t, uint64_t>>& pieces, nb::bytes footer,
           bool overwrite) {
            std::vector<legacy::TortillaPiece> native;
            native.reserve(pieces.size());
            for (const auto& [source, offset, length] : pieces)
                native.push_back({source, offset, length});
            std::string bytes(footer.c_str(), footer.size());
            GilRelease release;
            legacy::write_tortilla_file(output, native, bytes, overwrite);
        },
        "output"_a, "pieces"_a, "footer"_a, "overwrite"_a,
        "Writes a Tortilla 0.5 file: header, the (source, offset, length) pieces from byte 200, "
        "then the FOOTER; staged, and replacing only a v1 file when overwrite.");
}

}  // namespace taco::py
