// An aligned frame's bound `read` (tacocore/_backends.py: `frame.read = _core.read_method(native,
// link, fallback)`): a native callable with the vectorcall protocol. `df.read(k)` of a FILE in a
// ZIP is one C call from the interpreter, with no functools.partial and no argument dispatch in
// between, and the path goes from the frame's rows into a Python str with one copy
// (DataFrame::file_path_in_memory). Everything else — a FOLDER's children, a FOLDER dataset, the
// first lookup by id, keyword arguments, odd keys and every error — is handed unchanged to
// `_core.read_fast`, the bound function that did it all before, so what a read returns or raises
// is decided in one place (docs/READER.md §10.1).
#include "py_common.hpp"  // first: Python.h before structmember.h

#include <structmember.h>

#include <cstdint>
#include <optional>
#include <string_view>
#include <variant>
#include <vector>

#include "native_key.hpp"
#include "taco/dataframe.hpp"

namespace taco::py {
namespace {

struct ReadMethodObject {
    PyObject ob_base;  // PyObject_HEAD
    vectorcallfunc vectorcall;
    PyObject* frame;  // the native DataFrame (a nanobind instance): keeps `df` alive
    const DataFrame* df;
    PyObject* link;      // tacocore._backends._FrameLink
    PyObject* fallback;  // tacocore._backends._read_fallback
    PyObject* general;   // _core.read_fast(frame, link, fallback, key)
};

PyTypeObject* read_method_type = nullptr;

// The path of key `k` when it is a FILE answered from memory; nullopt for anything else,
// including errors, which the general path raises again (a read has no side effects).
std::optional<std::string_view> in_memory_path(const DataFrame& df, PyObject* k) noexcept {
    const std::optional<NativeKey> key = native_key(k);
    if (!key) return std::nullopt;
    try {
        return std::visit([&df](auto v) { return df.file_path_in_memory(v); }, *key);
    } catch (...) {
        return std::nullopt;
    }
}

PyObject* read_method_call(PyObject* self_object, PyObject* const* args, size_t nargsf,
                           PyObject* kwnames) {
    auto* self = reinterpret_cast<ReadMethodObject*>(self_object);
    const Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (nargs == 1 && kwnames == nullptr) {
        if (const auto path = in_memory_path(*self->df, args[0]))
            return PyUnicode_FromStringAndSize(path->data(), static_cast<Py_ssize_t>(path->size()));
    }
    // The general path, with the call's own arguments after the three bound ones.
    const Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    std::vector<PyObject*> all(static_cast<size_t>(3 + nargs + nkw));
    all[0] = self->frame;
    all[1] = self->link;
    all[2] = self->fallback;
    for (Py_ssize_t i = 0; i < nargs + nkw; ++i) all[static_cast<size_t>(3 + i)] = args[i];
    return PyObject_Vectorcall(self->general, all.data(), static_cast<size_t>(3 + nargs), kwnames);
}

int read_method_traverse(PyObject* self_object, visitproc visit, void* arg) {
    auto* self = reinterpret_cast<ReadMethodObject*>(self_object);
    Py_VISIT(Py_TYPE(self_object));  // a heap type: its instances keep it alive
    Py_VISIT(self->frame);
    Py_VISIT(self->link);
    Py_VISIT(self->fallback);
    Py_VISIT(self->general);
    return 0;
}

PyObject* read_method_call_cleared(PyObject*, PyObject* const*, size_t, PyObject*);

int read_method_clear(PyObject* self_object) {
    auto* self = reinterpret_cast<ReadMethodObject*>(self_object);
    self->vectorcall = read_method_call_cleared;
    self->df = nullptr;
    Py_CLEAR(self->frame);
    Py_CLEAR(self->link);
    Py_CLEAR(self->fallback);
    Py_CLEAR(self->general);
    return 0;
}

// After tp_clear (a cycle being collected) a call finds no frame, and says so.
PyObject* read_method_call_cleared(PyObject*, PyObject* const*, size_t, PyObject*) {
    PyErr_SetString(PyExc_RuntimeError, "read() of a frame that is being destroyed");
    return nullptr;
}

void read_method_dealloc(PyObject* self_object) {
    PyTypeObject* type = Py_TYPE(self_object);
    PyObject_GC_UnTrack(self_object);
    read_method_clear(self_object);
    type->tp_free(self_object);
    Py_DECREF(type);
}

PyObject* read_method_repr(PyObject*) {
    return PyUnicode_FromString("<native read method of a tacocore frame>");
}

PyMemberDef read_method_members[] = {
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(ReadMethodObject, vectorcall), READONLY, nullptr},
    {nullptr, 0, 0, 0, nullptr},
};

PyType_Slot read_method_slots[] = {
    {Py_tp_dealloc, reinterpret_cast<void*>(read_method_dealloc)},
    {Py_tp_traverse, reinterpret_cast<void*>(read_method_traverse)},
    {Py_tp_clear, reinterpret_cast<void*>(read_method_clear)},
    {Py_tp_call, reinterpret_cast<void*>(PyVectorcall_Call)},
    {Py_tp_repr, reinterpret_cast<void*>(read_method_repr)},
    {Py_tp_members, read_method_members},
    {Py_tp_doc, const_cast<char*>("read(key): FILE -> its GDAL VSI path; FOLDER -> a frame of its "
                                  "children (an aligned frame's read, made native).")},
    {0, nullptr},
};

PyType_Spec read_method_spec = {
    "tacocore._core.ReadMethod",
    sizeof(ReadMethodObject),
    0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL
#ifdef Py_TPFLAGS_DISALLOW_INSTANTIATION
        | Py_TPFLAGS_DISALLOW_INSTANTIATION
#endif
    ,
    read_method_slots,
};

}  // namespace

void bind_read_method(nb::module_& m) {
    read_method_type = reinterpret_cast<PyTypeObject*>(PyType_FromSpec(&read_method_spec));
    if (!read_method_type) throw nb::python_error();
    // Private (not in _core.pyi): the type of an aligned frame's read, for isinstance checks.
    m.attr("_ReadMethod") = nb::handle(reinterpret_cast<PyObject*>(read_method_type));

    nb::object general = m.attr("read_fast");  // bind_reader defines it first
    m.def(
        "read_method",
        [general](nb::handle frame, nb::handle link, nb::handle fallback) -> nb::object {
            const DataFrame& df = nb::cast<const DataFrame&>(frame);
            auto* self = PyObject_GC_New(ReadMethodObject, read_method_type);
            if (!self) throw nb::python_error();
            self->vectorcall = read_method_call;
            self->df = &df;
            self->frame = nb::borrow(frame).release().ptr();
            self->link = nb::borrow(link).release().ptr();
            self->fallback = nb::borrow(fallback).release().ptr();
            self->general = nb::borrow(general).release().ptr();
            PyObject_GC_Track(reinterpret_cast<PyObject*>(self));
            return nb::steal(reinterpret_cast<PyObject*>(self));
        },
        nb::arg("frame"), nb::arg("link"), nb::arg("fallback"),
        "An aligned frame's bound read (tacocore/_backends.py; not an API).");
}

}  // namespace taco::py
