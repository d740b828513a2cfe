// tacocore._core: the native half of the `tacocore` Python package.
#include <nanobind/stl/string.h>

#include <string>
#include <string_view>

#include "paths/path_display.hpp"
#include "py_common.hpp"
#include "taco/log.hpp"

NB_MODULE(_core, m) {
    m.doc() =
        "Native core of tacocore: TACO 2.0 datasets (create, load, SQL, navigation, sample bytes).";
    taco::py::bind_errors(m);
    taco::py::bind_model(m);
    taco::py::bind_reader(m);
    taco::py::bind_read_method(m);
    taco::py::bind_raster(m);
    taco::py::bind_remote(m);
    taco::py::bind_collection(m);
    taco::py::bind_training(m);
    taco::py::bind_convert(m);
    taco::py::bind_legacy(m);
    taco::py::bind_catalog(m);
    taco::py::bind_spacetime(m);
    taco::py::bind_extensions(m);
    taco::py::bind_geostats(m);
    taco::py::bind_tacozip(m);
    nb::module_::import_("atexit").attr("register")(
        nb::cpp_function(&taco::py::before_interpreter_exit));
    // GDAL's warnings reach `logging` (logger "tacocore.gdal") instead of standard error; its
    // errors arrive inside the TacoError raised for the failure. tacocore's own warnings go to
    // the logger of their source ("tacocore.load", "tacocore.create").
    taco::set_log_handler(
        [](taco::LogLevel level, std::string_view source, std::string_view message) {
            // Past the atexit handlers, taking the GIL could end this thread (gil_release.hpp).
            if (!Py_IsInitialized() || taco::py::g_interpreter_exiting.load()) return;
            nb::gil_scoped_acquire gil;
            try {
                const bool gdal = source == "GDAL";
                const std::string name = "tacocore." + std::string(gdal ? "gdal" : source);
                nb::object logger = nb::module_::import_("logging").attr("getLogger")(name);
                const char* method = level == taco::LogLevel::Warning ? "warning" : "debug";
                if (gdal) {
                    logger.attr(method)("%s: %s", std::string(source),
                                        taco::paths::display_text(message));
                } else {
                    logger.attr(method)("%s", taco::paths::display_text(message));
                }
            } catch (...) {
                PyErr_Clear();  // logging must never turn a read into a failure
            }
        });
}
