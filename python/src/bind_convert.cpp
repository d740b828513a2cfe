// Export and zip2folder/folder2zip (include/taco/convert.hpp) for the Python package; the
// Python surface (TacoDataset.export, tacocore.convert) is in tacocore/_convert.py.
#include <nanobind/stl/filesystem.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "export_result.hpp"
#include "format/overwrite_guard.hpp"
#include "py_common.hpp"
#include "py_paths.hpp"
#include "taco/card.hpp"
#include "taco/convert.hpp"
#include "taco/errors.hpp"

using namespace nb::literals;

namespace taco::py {

ContainerFormat parse_container_format(const std::string& f) {
    if (f == "zip") return ContainerFormat::Zip;
    if (f == "folder") return ContainerFormat::Folder;
    if (f == "auto" || f.empty()) return ContainerFormat::Auto;
    throw QueryError("format must be 'zip', 'folder' or 'auto', not '" + f + "'");
}

ExportOptions export_options(const std::string& format, bool overwrite,
                             const std::string& level_codec) {
    ExportOptions o;
    o.format = parse_container_format(format);
    o.overwrite = overwrite;
    o.level_codec = parse_parquet_codec(level_codec);
    return o;
}

nb::dict export_result_dict(const ExportResult& r) {
    nb::dict d;
    d["path"] = fs_str(r.path);
    d["format"] = std::string(to_string(r.format));
    d["files"] = r.files;
    d["sample_bytes"] = r.sample_bytes;
    d["level_rows"] = r.level_rows;
    return d;
}

void bind_convert(nb::module_& m) {
    m.def(
        "export_dataset",
        [](const Dataset& view, const std::filesystem::path& output, const std::string& format,
           bool overwrite, int compression_level, const std::string& level_codec) {
            ExportOptions o = export_options(format, overwrite, level_codec);
            o.compression_level = compression_level;
            return write_without_gil(
                o, [&](const ExportOptions& opts) { return export_dataset(view, output, opts); });
        },
        "view"_a, "output"_a, "format"_a = "auto", "overwrite"_a = false, "compression_level"_a = 3,
        "level_codec"_a = "lz4_raw",
        "Writes the rows of a level-0 view with their subtrees as a new dataset.");
    m.def(
        "convert_dataset",
        [](const std::filesystem::path& input, const std::filesystem::path& output,
           const std::string& format, bool overwrite, const std::string& level_codec) {
            return write_without_gil(
                export_options(format, overwrite, level_codec),
                [&](const ExportOptions& opts) { return convert_dataset(input, output, opts); });
        },
        "input"_a, "output"_a, "format"_a = "auto", "overwrite"_a = false,
        "level_codec"_a = "lz4_raw",
        "zip2folder / folder2zip: the whole dataset in the other container, losslessly.");
    m.def(
        "dataset_card",
        [](const Dataset& ds, const std::string& format, const std::string& example) {
            CardOptions o;
            o.dataset_example_path = example;
            const CardFormat f = parse_card_format(format);
            GilRelease release;
            return dataset_card(ds, f, o);
        },
        "dataset"_a, "format"_a = "md", "dataset_example_path"_a = "",
        "A dataset card as Markdown or self-contained HTML text.");
    m.def(
        "check_replaceable_document",
        [](const std::string& target, const Dataset& ds, const std::string& who) {
            format::check_replaceable_document(target, ds.sources(), who);
        },
        "target"_a, "dataset"_a, "who"_a,
        "IoError unless an existing `target` is a regular file outside every TACO dataset.");
}

}  // namespace taco::py
