// What the bindings that write a whole dataset from another (export, convert, migrate) share: the
// `format=` argument and the result dict (defined in bind_convert.cpp).
#pragma once

#include <string>

#include "py_common.hpp"
#include "taco/convert.hpp"

namespace taco::py {

/// "zip", "folder", "auto" or "" (auto); anything else is a QueryError naming it.
ContainerFormat parse_container_format(const std::string& f);

/// {path, format, files, sample_bytes, level_rows} of a finished write.
nb::dict export_result_dict(const ExportResult& r);

}  // namespace taco::py
