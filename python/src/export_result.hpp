// What the bindings that write a whole dataset from another (export, convert, migrate) share: the
// `format=`/`overwrite=` arguments, the GIL released around the copy, and the result dict
// (defined in bind_convert.cpp).
#pragma once

#include <string>

#include "py_common.hpp"
#include "taco/convert.hpp"

namespace taco::py {

/// "zip", "folder", "auto" or "" (auto); anything else is a QueryError naming it.
ContainerFormat parse_container_format(const std::string& f);

/// {path, format, files, sample_bytes, level_rows} of a finished write.
nb::dict export_result_dict(const ExportResult& r);

/// The ExportOptions of the `format=` and `overwrite=` arguments every such binding takes.
ExportOptions export_options(const std::string& format, bool overwrite);

/// Runs `write(options)` (the whole copy) without the GIL; its result as export_result_dict.
template <class Write>
nb::dict write_without_gil(const ExportOptions& options, Write&& write) {
    ExportResult r;
    {
        nb::gil_scoped_release release;
        r = write(options);
    }
    return export_result_dict(r);
}

}  // namespace taco::py
