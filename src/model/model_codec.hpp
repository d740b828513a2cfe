// A compact binary form of Sample and Tortilla trees, so that a dataset being built can travel
// to another process (pickle for Dask workers, multiprocessing) and be rebuilt there exactly:
// ids, FILE paths or in-memory bytes, FOLDER children, padding samples, and every metadata value
// with its exact type (int32 stays int32, typed nulls keep their type, decimals their scale).
// FILE samples read from disk travel as their path: the receiving process must see the same
// file (shared storage), and its size is taken again there.
#pragma once

#include <string>
#include <string_view>

#include "taco/sample.hpp"
#include "taco/tortilla.hpp"

namespace taco::model {

/// The encoded form of one sample (a FOLDER with its whole subtree).
std::string encode_sample(const Sample& sample);
/// Rebuilds a sample; FormatError naming `what` on a truncated or foreign byte string.
Sample decode_sample(std::string_view bytes, const std::string& what);

std::string encode_tortilla(const Tortilla& tortilla);
/// Rebuilds a tortilla with the same samples, padding included, in the same order.
Tortilla decode_tortilla(std::string_view bytes, const std::string& what);

}  // namespace taco::model
