// taco::Error subclasses become Python exceptions with the tacoreader names, raised with the
// C++ message (which already names file, sample or column).
#include <nanobind/nanobind.h>
#include <nlohmann/json.hpp>

#include <cstring>
#include <new>
#include <string>

#include "paths/path_display.hpp"
#include "py_common.hpp"
#include "taco/errors.hpp"

namespace taco::py {
namespace {

nb::object g_base, g_format, g_schema, g_pit, g_query, g_io, g_navigation, g_memory;

// nlohmann's messages start with "[json.exception.parse_error.101] ": an internal tag, not
// something a user can act on.
std::string without_json_tag(const char* what) {
    std::string text = what;
    if (text.rfind("[json.exception.", 0) == 0) {
        const size_t end = text.find("] ");
        if (end != std::string::npos) text = text.substr(end + 2);
    }
    return "invalid JSON: " + text;
}

// Created in this module (e.g. "tacocore._core.TacoError") so that nanobind's stub generator,
// which imports the extension on its own as `_core`, writes the classes into _core.pyi.
// tacocore/__init__.py then sets __module__ to "tacocore", the name users import them from.
nb::object make_exception(nb::module_& m, const char* name, nb::handle base, const char* doc) {
    std::string qualified = std::string(nb::str(m.attr("__name__")).c_str()) + "." + name;
    nb::object cls =
        nb::steal(PyErr_NewExceptionWithDoc(qualified.c_str(), doc, base.ptr(), nullptr));
    if (!cls) throw nb::python_error();
    m.attr(name) = cls;
    return cls;
}

// Sets the Python error from a C++ message. Messages quote file contents and names, which need
// not be UTF-8 (a ZIP entry name, a byte 0xff in COLLECTION.json): decoded with replacement
// characters, so the exception raised is ours and not a UnicodeDecodeError about the message.
void set_error(nb::handle cls, const char* raw_message) {
    // A path that is not UTF-8 is shown escaped (`\xff`), and /proc/self/fd/N of an anchored
    // one as the path itself (paths/path_display.hpp); decoding with replacement stays as a
    // last line of defence.
    const std::string message = paths::display_text(raw_message);
    PyObject* text =
        PyUnicode_DecodeUTF8(message.data(), static_cast<Py_ssize_t>(message.size()), "replace");
    if (!text) {
        PyErr_Clear();
        PyErr_SetString(cls.ptr(), "(message not decodable)");
        return;
    }
    PyErr_SetObject(cls.ptr(), text);
    Py_DECREF(text);
}

}  // namespace

void bind_errors(nb::module_& m) {
    g_base = make_exception(m, "TacoError", PyExc_Exception, "Base class of every tacocore error.");
    g_format =
        make_exception(m, "TacoFormatError", g_base, "A file is not a valid TACO container.");
    // Also a ValueError: tacotoolbox raises ValueError (pydantic's ValidationError is one) for a
    // bad id, key, value or schema, so scripts written for it catch that.
    g_schema =
        make_exception(m, "TacoSchemaError", nb::make_tuple(g_base, nb::handle(PyExc_ValueError)),
                       "A value, column, id or collection field breaks the data model.");
    g_pit = make_exception(m, "TacoPitError", g_schema, "The sample tree breaks PIT-1 or PIT-2.");
    g_query = make_exception(m, "TacoQueryError", g_base, "A SQL query or filter failed.");
    g_io = make_exception(m, "TacoIOError", g_base, "Reading or writing bytes failed.");
    g_navigation = make_exception(m, "TacoNavigationError", g_base,
                                  "read(key) got a position or id that does not exist.");
    // Both a TacoError (one hierarchy) and a MemoryError (what Python code expects to catch).
    g_memory =
        make_exception(m, "TacoMemoryError", nb::make_tuple(g_base, nb::handle(PyExc_MemoryError)),
                       "An operation needed more memory than there is.");
    nb::register_exception_translator([](const std::exception_ptr& p, void*) {
        try {
            std::rethrow_exception(p);
        } catch (const NavigationError& e) {
            set_error(g_navigation, e.what());
        } catch (const PitError& e) {
            set_error(g_pit, e.what());
        } catch (const SchemaError& e) {
            set_error(g_schema, e.what());
        } catch (const FormatError& e) {
            set_error(g_format, e.what());
        } catch (const QueryError& e) {
            set_error(g_query, e.what());
        } catch (const IoError& e) {
            set_error(g_io, e.what());
        } catch (const Error& e) {
            set_error(g_base, e.what());
        } catch (const nlohmann::json::exception& e) {
            // A JSON document (COLLECTION.json, a metadata field) the parser refused.
            set_error(g_format, without_json_tag(e.what()).c_str());
        } catch (const std::bad_alloc&) {
            PyErr_SetString(g_memory.ptr(),
                            "out of memory (a size read from a file, or a result too large for "
                            "this machine)");
        }
    });
}

}  // namespace taco::py
