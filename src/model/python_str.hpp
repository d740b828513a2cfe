// Python's str() of a metadata value, as tacotoolbox sees it (pyarrow's to_pylist() objects):
// the text it names group_by parts with.
#pragma once

#include <string>

#include "taco/value.hpp"

namespace taco::model {

/// str(v) in Python for the object pyarrow gives for `v`: None, True/False, 12, 0.1 / 1e-07 /
/// 100.0 (repr of the double; a float32 widened first, as pyarrow does), text as it is,
/// b'ab' (bytes' repr), "2020-01-01 00:00:00[.ffffff]" (a timestamp; "+00:00" after a zoned
/// one), "2020-01-01", a decimal's digits; lists, structs and maps as Python prints the list,
/// dict and list of (key, value) tuples that pyarrow makes of them (elements by repr).
std::string python_str(const Value& v);

/// repr() of the same object for text ('a b', quoted and escaped); python_str for the rest.
std::string python_repr(const Value& v);

}  // namespace taco::model
