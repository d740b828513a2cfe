// DataFrame.read_bytes (one sample) and DataFrame.read_bytes_many (a batch) for Python: the bytes
// are read straight into `bytes` objects, without an intermediate std::string and its copy.
#pragma once

#include <cstdint>
#include <string_view>
#include <variant>
#include <vector>

#include "py_common.hpp"
#include "taco/dataframe.hpp"

namespace taco::py {

/// A read_bytes key as Python passes it: a position or an id.
using SampleKey = std::variant<int64_t, std::string>;

/// The bytes of one FILE sample. The GIL is released while the sample is located and while a
/// large or remote sample is read; a small local read keeps it (releasing and taking it back
/// costs more than a 4 KiB pread from the page cache: docs/READER.md §10).
nb::bytes read_bytes_at(const DataFrame& df, int64_t position);
nb::bytes read_bytes_of(const DataFrame& df, std::string_view id);

/// The bytes of every key's sample, in order: located without the GIL, `bytes` objects made with
/// it, then filled without it on `threads` native threads (0: one per core). The first failing
/// key's error (it names the sample) is raised and nothing is returned.
nb::list read_bytes_many(const DataFrame& df, const std::vector<SampleKey>& keys, unsigned threads);

}  // namespace taco::py
