// taco::Error subclasses become Python exceptions with the tacoreader names, raised with the
// C++ message (which already names file, sample or column).
#include <nanobind/nanobind.h>

#include "py_common.hpp"
#include "taco/errors.hpp"

namespace taco::py {
namespace {

nb::object g_base, g_format, g_schema, g_pit, g_query, g_io, g_navigation;

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

}  // namespace

void bind_errors(nb::module_& m) {
    g_base = make_exception(m, "TacoError", PyExc_Exception, "Base class of every tacocore error.");
    g_format =
        make_exception(m, "TacoFormatError", g_base, "A file is not a valid TACO container.");
    g_schema = make_exception(m, "TacoSchemaError", g_base,
                              "A value, column, id or collection field breaks the data model.");
    g_pit = make_exception(m, "TacoPitError", g_schema, "The sample tree breaks PIT-1 or PIT-2.");
    g_query = make_exception(m, "TacoQueryError", g_base, "A SQL query or filter failed.");
    g_io = make_exception(m, "TacoIOError", g_base, "Reading or writing bytes failed.");
    g_navigation = make_exception(m, "TacoNavigationError", g_base,
                                  "read(key) got a position or id that does not exist.");
    nb::register_exception_translator([](const std::exception_ptr& p, void*) {
        try {
            std::rethrow_exception(p);
        } catch (const NavigationError& e) {
            PyErr_SetString(g_navigation.ptr(), e.what());
        } catch (const PitError& e) {
            PyErr_SetString(g_pit.ptr(), e.what());
        } catch (const SchemaError& e) {
            PyErr_SetString(g_schema.ptr(), e.what());
        } catch (const FormatError& e) {
            PyErr_SetString(g_format.ptr(), e.what());
        } catch (const QueryError& e) {
            PyErr_SetString(g_query.ptr(), e.what());
        } catch (const IoError& e) {
            PyErr_SetString(g_io.ptr(), e.what());
        } catch (const Error& e) {
            PyErr_SetString(g_base.ptr(), e.what());
        }
    });
}

}  // namespace taco::py
