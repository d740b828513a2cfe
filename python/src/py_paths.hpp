// Paths between Python and C++ (issue 18 item 8). A Linux path is bytes; Python hands one that is
// not UTF-8 over as bytes or as a str with surrogate escapes (os.fsdecode). Bindings take paths as
// std::filesystem::path (nanobind/stl/filesystem.h: str, bytes or os.PathLike, converted with
// os.fsencode, so no byte is lost) and give them back with fs_str(), as os.fsdecode() would.
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/stl/filesystem.h>

#include <filesystem>

namespace taco::py {

/// `path` as os.fsdecode() gives it: a str, with surrogate escapes for bytes that are not UTF-8
/// (os.fsencode() of it gives the bytes back).
inline nanobind::str fs_str(const std::filesystem::path& path) {
    PyObject* text = PyUnicode_DecodeFSDefaultAndSize(
        path.c_str(), static_cast<Py_ssize_t>(path.native().size()));
    if (!text) throw nanobind::python_error();
    return nanobind::steal<nanobind::str>(text);
}

}  // namespace taco::py
