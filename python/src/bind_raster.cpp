// read_array / read_arrays: GDAL decoding into numpy arrays without the GIL; the decoded buffer
// becomes the array's memory (no copy).
#include <atomic>

#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "interruptible.hpp"
#include "py_common.hpp"
#include "py_paths.hpp"
#include "raster/decode.hpp"
#include "raster/decode_ahead.hpp"
#include "raster/tacotiff_header.hpp"

namespace taco::py {
using namespace nb::literals;

namespace {

// A memoryview over the decoded buffer (which it owns); the Python side makes it a numpy array
// (numpy.asarray, no copy). Not nanobind's numpy export: that calls numpy from inside a noexcept
// function, and a daemon thread that Python ends there at interpreter exit (pthread_exit while
// taking the GIL back) aborts the process ("terminate called without an active exception").
// Outside every C++ frame, the same ending unwinds cleanly.
nb::object to_buffer(raster::Raster&& r) {
    auto* owner = new std::vector<uint8_t>(std::move(r.data));
    nb::capsule free_when_done(
        owner, [](void* p) noexcept { delete static_cast<std::vector<uint8_t>*>(p); });
    size_t shape[3] = {static_cast<size_t>(r.bands), static_cast<size_t>(r.height),
                       static_cast<size_t>(r.width)};
    nb::dlpack::dtype dt;
    const std::string& n = r.dtype;
    if (n == "float32" || n == "float64")
        dt = {static_cast<uint8_t>(nb::dlpack::dtype_code::Float),
              static_cast<uint8_t>(r.element_size * 8), 1};
    else if (n[0] == 'u')
        dt = {static_cast<uint8_t>(nb::dlpack::dtype_code::UInt),
              static_cast<uint8_t>(r.element_size * 8), 1};
    else
        dt = {static_cast<uint8_t>(nb::dlpack::dtype_code::Int),
              static_cast<uint8_t>(r.element_size * 8), 1};
    nb::ndarray<nb::memview> arr(owner->data(), 3, shape, free_when_done, nullptr, dt);
    return nb::cast(arr);
}

}  // namespace

void bind_raster(nb::module_& m) {
    m.def(
        "tacotiff_header",
        [](const std::string& path, const std::string& what) {
            std::string header;
            {
                GilRelease release;
                header = raster::tacotiff_header(path, what);
            }
            return nb::bytes(header.data(), header.size());
        },
        "path"_a, "what"_a,
        "The TACOTIFF binary header (taco:header) of the tiled TIFF at `path`, as tacotiff packs "
        "it; `what` names the sample in errors.");
    m.def(
        "read_array",
        [](const std::filesystem::path& path) {
            raster::Raster r;
            {
                GilRelease release;
                r = raster::decode(path.string());
            }
            return to_buffer(std::move(r));
        },
        "path"_a,
        "Decodes a raster (any GDAL path) to a memoryview shaped (bands, height, width) that "
        "numpy.asarray makes an array without a copy.");

    m.def(
        "read_arrays",
        [](const std::vector<std::string>& paths, unsigned threads) {
            // Ctrl-C stops the batch: no new decode starts, the running ones finish.
            std::atomic<bool> stop{false};
            std::vector<raster::Raster> rs = call_interruptible(
                [&] { return raster::decode_many(paths, threads, &stop); }, [&] { stop = true; });
            nb::list out;
            for (auto& r : rs) out.append(to_buffer(std::move(r)));
            return out;
        },
        "paths"_a, "threads"_a = 0,
        "Decodes many rasters in parallel (threads=0: all cores), in input order: memoryviews "
        "as read_array.");

    nb::class_<raster::DecodeAhead>(m, "DecodeAhead",
                                    "An iterator of numpy arrays decoded on native threads, a "
                                    "bounded window ahead of the consumer, in path order.")
        .def(nb::init<std::vector<std::string>, unsigned, size_t>(), "paths"_a, "threads"_a = 0,
             "window"_a = 4)
        .def("__len__", &raster::DecodeAhead::size, "How many paths it decodes in all.")
        .def(
            "__iter__", [](nb::handle self) { return self; }, "The iterator itself.")
        .def(
            "__next__",
            [](raster::DecodeAhead& it) -> nb::object {
                // Waits without the GIL, a slice at a time, so Ctrl-C still reaches the consumer.
                for (;;) {
                    if (it.done()) throw nb::stop_iteration();
                    std::optional<raster::Raster> r;
                    {
                        GilRelease release;
                        r = it.next(kSignalPoll);
                    }
                    if (r) return to_buffer(std::move(*r));
                    if (PyErr_CheckSignals() != 0) throw nb::python_error();
                }
            },
            "The next array, in path order; raises the decode error of its path.");
}

}  // namespace taco::py
