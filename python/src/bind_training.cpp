// What tacocore.torch and tacocore.dask need from the core: batch decoding into a buffer the
// caller preallocated (a DataLoader batch, decoded without the GIL and without a stacking copy),
// and the pieces of a multi-part create that a cluster runs apart (the tree of a directory, the
// plan of the parts, the .tacocat/ index written over staged parts).
#include <nanobind/ndarray.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include "collection/multipart_create.hpp"
#include "collection/tacocat_write.hpp"
#include "format/create_session.hpp"
#include "py_common.hpp"
#include "py_paths.hpp"
#include "raster/decode.hpp"
#include "taco/errors.hpp"
#include "taco/writer.hpp"
#include "toolbox/directory_source.hpp"

namespace taco::py {
using namespace nb::literals;

namespace {

using Batch = nb::ndarray<nb::c_contig, nb::device::cpu>;

// numpy's name for an array's element type, as raster::RasterShape spells it.
std::string dtype_name(const Batch& a) {
    const nb::dlpack::dtype t = a.dtype();
    const std::string bits = std::to_string(t.bits);
    if (t.lanes == 1) {
        if (t.code == static_cast<uint8_t>(nb::dlpack::dtype_code::UInt)) return "uint" + bits;
        if (t.code == static_cast<uint8_t>(nb::dlpack::dtype_code::Int)) return "int" + bits;
        if (t.code == static_cast<uint8_t>(nb::dlpack::dtype_code::Float)) return "float" + bits;
    }
    throw QueryError(
        "decode_batch_into: the output buffer's element type is not a plain "
        "integer or float type");
}

}  // namespace

void bind_training(nb::module_& m) {
    m.def(
        "probe_raster",
        [](const std::filesystem::path& path) {
            raster::RasterShape s;
            {
                GilRelease release;
                s = raster::probe(path.string());
            }
            return std::make_tuple(s.bands, s.height, s.width, s.dtype);
        },
        "path"_a,
        "(bands, height, width, dtype) of a raster (any GDAL path); no pixel is decoded.");

    m.def(
        "decode_batch_into",
        [](const std::vector<std::string>& paths, Batch out, unsigned threads) {
            if (out.ndim() != 4 || out.shape(0) != paths.size()) {
                throw QueryError("decode_batch_into: the output buffer must be shaped (" +
                                 std::to_string(paths.size()) +
                                 ", bands, height, width), one slot per path");
            }
            raster::RasterShape expect;
            expect.bands = static_cast<int>(out.shape(1));
            expect.height = static_cast<int>(out.shape(2));
            expect.width = static_cast<int>(out.shape(3));
            expect.dtype = dtype_name(out);
            expect.element_size = out.dtype().bits / 8;
            std::vector<raster::DecodeFailure> failures;
            {
                GilRelease release;
                failures = raster::decode_batch_into(paths, expect,
                                                     static_cast<uint8_t*>(out.data()), threads);
            }
            std::vector<std::pair<size_t, std::string>> result;
            for (auto& f : failures) result.emplace_back(f.index, std::move(f.message));
            return result;
        },
        "paths"_a, "out"_a, "threads"_a = 0,
        "Decodes paths[i] into out[i] (a C-contiguous, writable (N, bands, height, width) array) "
        "on `threads` threads without the GIL. Returns [(index, message)] of the samples that "
        "failed (unreadable, or of another shape or type); their slots are left untouched.");

    m.def(
        "directory_tortilla",
        [](const std::filesystem::path& dir, const std::filesystem::path& metadata,
           const std::string& key, size_t pad_to) {
            GilRelease release;
            format::PendingSession db;
            toolbox::DirectoryOptions options;
            if (!metadata.empty()) options.metadata_table = metadata;
            options.key_column = key;
            if (pad_to) options.pad_to = pad_to;
            return toolbox::tortilla_from_directory(dir, options, db);
        },
        "dir"_a, "metadata"_a = "", "key"_a = "path", "pad_to"_a = 0,
        "The sample tree `taco create --from DIR [--metadata TABLE --key COLUMN]` builds.");

    m.def(
        "plan_parts",
        [](const Taco& taco, const std::filesystem::path& output, const std::string& split_size,
           const std::vector<std::string>& group_by) {
            CreateOptions options;
            if (!split_size.empty()) options.split_size = parse_size(split_size);
            options.group_by = group_by;
            std::vector<std::pair<std::string, std::vector<size_t>>> out;
            for (auto& p : collection::plan_parts(taco, output, options))
                out.emplace_back(std::move(p.name), std::move(p.samples));
            return out;
        },
        "taco"_a, "output"_a, "split_size"_a = "", "group_by"_a = std::vector<std::string>{},
        "[(part file name, [positions of its root samples])]: the parts `create(split_size=, "
        "group_by=)` would write, nothing written.");

    m.def(
        "write_tacocat_staged",
        [](const std::vector<std::string>& paths, const std::vector<std::string>& names,
           const std::string& staging) {
            const std::vector<std::filesystem::path> p(paths.begin(), paths.end());
            GilRelease release;
            collection::write_tacocat_at(p, names, staging, TacocatFormat::Folder);
        },
        "paths"_a, "names"_a, "staging"_a,
        "Writes a .tacocat/ index at `staging` over the parts at `paths` (still under staging "
        "names), recording them as `names`.");
}

}  // namespace taco::py
