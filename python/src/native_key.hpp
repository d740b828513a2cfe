// The read() keys the native frame takes straight from a Python object, shared by the general
// read path (bind_reader.cpp: read_fast) and the native read method (read_method.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <variant>

#include "py_common.hpp"

namespace taco::py {

/// A position or an id (a view of the str's UTF-8, valid while the str lives).
using NativeKey = std::variant<int64_t, std::string_view>;

/// `key` as a NativeKey when it is an exact int that fits 64 bits or an exact str that is valid
/// UTF-8; nullopt, with no Python error left set, for anything else (numpy integers, bools,
/// floats, surrogate escapes), which the checked Python path reads and names.
inline std::optional<NativeKey> native_key(PyObject* key) noexcept {
    if (PyLong_CheckExact(key)) {
        int overflow = 0;
        const long long position = PyLong_AsLongLongAndOverflow(key, &overflow);
        if (overflow == 0 && !(position == -1 && PyErr_Occurred()))
            return NativeKey(static_cast<int64_t>(position));
    } else if (PyUnicode_CheckExact(key)) {
        Py_ssize_t size = 0;
        const char* text = PyUnicode_AsUTF8AndSize(key, &size);
        if (text) return NativeKey(std::string_view(text, static_cast<size_t>(size)));
    }
    PyErr_Clear();
    return std::nullopt;
}

}  // namespace taco::py
