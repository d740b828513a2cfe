// Shared helpers of the tacocore Python extension: Python <-> Value conversion and the error
// translation. Each bind_*.cpp file registers one part of the API on the module.
#pragma once

#include <nanobind/nanobind.h>

#include "gil_release.hpp"

#include "taco/value.hpp"

namespace nb = nanobind;

namespace taco::py {

/// Converts a Python object to a typed Value: None, bool, int, float, str, bytes/bytearray/
/// memoryview, datetime.datetime (naive = UTC) and datetime.date, numpy scalars and arrays
/// (any dimension, as nested lists), lists and tuples (nested). `what` names the field in errors.
Value to_value(nb::handle obj, const std::string& what);
/// Converts a Value back to Python (timestamps become naive UTC datetime objects).
nb::object from_value(const Value& v);

void bind_errors(nb::module_& m);
void bind_model(nb::module_& m);
void bind_reader(nb::module_& m);
void bind_read_method(nb::module_& m);  // after bind_reader: wraps its read_fast
void bind_raster(nb::module_& m);
void bind_remote(nb::module_& m);
void bind_collection(nb::module_& m);
void bind_training(nb::module_& m);
void bind_convert(nb::module_& m);
void bind_legacy(nb::module_& m);  // bind_legacy.cpp (issue 16, legacy v1)
void bind_catalog(nb::module_& m);
void bind_spacetime(nb::module_& m);
void bind_extensions(nb::module_& m);
void bind_geostats(nb::module_& m);
void bind_tacozip(nb::module_& m);

}  // namespace taco::py
