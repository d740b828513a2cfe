// What the bindings that write a whole dataset from another (export, convert, migrate) share: the
// `format=`/`overwrite=`/`level_codec=` arguments, the GIL released around the copy, and the
// result dict (defined in bind_convert.cpp).
#pragma once

#include <string>

#include "py_common.hpp"
#include "taco/convert.hpp"

namespace taco::py {

/// "zip", "folder", "auto" or "" (auto); anything else is a QueryError naming it.
ContainerFormat parse_container_format(const std::string& f);

/// {path, format, files, sample_bytes, level_rows} of a finished write.
nb::dict export_result_dict(const ExportResult& r);

/// The ExportOptions of the `format=`, `overwrite=` and `level_codec=` arguments every such
/// binding takes (`level_codec`: "lz4_raw", "lz4" or "zstd", any case; anything else is a
/// ValueError naming the choices, as in create()).
ExportOptions export_options(const std::string& format, bool overwrite,
                             const std::string& level_codec);

/// Runs `write(options)` (the whole copy) without the GIL; its result as export_result_dict.
template <class Write>
nb::dict write_without_gil(const ExportOptions& options, Write&& write) {
    ExportResult r;
    {
        GilRelease release;
        r = write(options);
    }
    return export_result_dict(r);
}

}  // namespace taco::py
