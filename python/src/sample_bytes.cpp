#include "sample_bytes.hpp"

#include <Python.h>

#include <limits>
#include <string>

#include "io/parallel.hpp"
#include "query/navigation.hpp"
#include "taco/errors.hpp"

namespace taco::py {

namespace {

const std::string kWhat = "sample bytes";

// Up to this size a local read keeps the GIL: a pread of 4 KiB from the page cache takes about
// 1 µs, while releasing the GIL and taking it back costs about as much again, and far more when
// another thread is waiting for it (each call hands it over). A local source is a regular file
// opened non-blocking (FIFOs and devices are refused), so the read cannot wait on a writer.
constexpr uint64_t kKeepGilUpTo = 64 * 1024;

// A `bytes` object of `size` bytes, not yet filled (only its creator sees it until returned).
nb::bytes empty_bytes(uint64_t size) {
    if (size > static_cast<uint64_t>(std::numeric_limits<Py_ssize_t>::max())) {
        throw IoError("a sample of " + std::to_string(size) +
                      " bytes does not fit in a Python bytes object");
    }
    PyObject* b = PyBytes_FromStringAndSize(nullptr, static_cast<Py_ssize_t>(size));
    if (!b) throw nb::python_error();
    return nb::steal<nb::bytes>(b);
}

char* buffer_of(const nb::bytes& b) {
    return PyBytes_AS_STRING(b.ptr());
}

nb::bytes read_range(const query::FileRange& r) {
    nb::bytes out = empty_bytes(r.size);
    char* into = buffer_of(out);
    if (r.source->local_fd() >= 0 && r.size <= kKeepGilUpTo) {
        r.source->read_at(r.offset, into, static_cast<size_t>(r.size), kWhat);
    } else {
        GilRelease release;
        r.source->read_at(r.offset, into, static_cast<size_t>(r.size), kWhat);
    }
    return out;
}

}  // namespace

nb::bytes read_bytes_at(const DataFrame& df, int64_t position) {
    query::FileRange r;
    {
        // Locating may open a file or send a HEAD (a remote part of a collection): no GIL.
        GilRelease release;
        r = df.byte_range(position);
    }
    return read_range(r);
}

nb::bytes read_bytes_of(const DataFrame& df, std::string_view id) {
    query::FileRange r;
    {
        GilRelease release;
        r = df.byte_range(static_cast<int64_t>(df.position_of(id)));
    }
    return read_range(r);
}

nb::list read_bytes_many(const DataFrame& df, const std::vector<SampleKey>& keys,
                         unsigned threads) {
    const size_t n = keys.size();
    std::vector<int64_t> positions(n);
    std::vector<query::FileRange> ranges(n);
    {
        GilRelease release;
        for (size_t i = 0; i < n; ++i) {
            positions[i] =
                std::holds_alternative<int64_t>(keys[i])
                    ? std::get<int64_t>(keys[i])
                    : static_cast<int64_t>(df.position_of(std::get<std::string>(keys[i])));
            ranges[i] = df.byte_range(positions[i]);
            // A ZIP's samples share the archive's open source (the dataset keeps it); a FOLDER
            // sample is a file opened for this range alone. Keeping those open until the fill
            // below would hold one descriptor per key (30,000 keys: "Too many open files"), so
            // it is closed now and opened again by the thread that reads it.
            if (ranges[i].source.use_count() == 1) ranges[i].source.reset();
        }
    }
    // The list owns each bytes object from the moment it exists, so an error below frees them
    // all; a slot not yet set is NULL, which a list's deallocation skips.
    nb::list out = nb::steal<nb::list>(PyList_New(static_cast<Py_ssize_t>(n)));
    if (!out.is_valid()) throw nb::python_error();
    std::vector<char*> buffers(n);
    for (size_t i = 0; i < n; ++i) {
        nb::bytes b = empty_bytes(ranges[i].size);
        buffers[i] = buffer_of(b);
        PyList_SET_ITEM(out.ptr(), static_cast<Py_ssize_t>(i), b.release().ptr());
    }
    {
        // Nothing else can reach these objects yet: filling them needs no GIL.
        GilRelease release;
        io::parallel_for(
            n, threads,
            [&](size_t i) {
                query::FileRange r = ranges[i];
                if (!r.source) {
                    r = df.byte_range(positions[i]);
                    if (r.size != ranges[i].size) {
                        throw IoError(r.source->name() + ": sample at position " +
                                      std::to_string(positions[i]) +
                                      " changed size while it was "
                                      "read (" +
                                      std::to_string(ranges[i].size) + " -> " +
                                      std::to_string(r.size) + " bytes)");
                    }
                }
                r.source->read_at(r.offset, buffers[i], static_cast<size_t>(r.size), kWhat);
            },
            16);
    }
    return out;
}

}  // namespace taco::py
