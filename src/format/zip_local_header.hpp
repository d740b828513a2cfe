// Which ZIP entry a data offset taken from metadata belongs to, confirmed from the local file
// header in front of it: one small read, no central directory (which for a million samples is
// tens of megabytes).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "io/byte_source.hpp"

namespace taco::format {

/// Which of `names` the local file header ending exactly at `data_offset` of `archive` carries:
/// its signature, name length and name match, and its extra field (of any length up to 1 KiB,
/// where writers put ZIP64 sizes or timestamps) reaches the offset. nullopt when none does or
/// the bytes before the offset cannot hold such a header. One read; failures are IoError.
std::optional<size_t> local_header_name_at(const io::ByteSource& archive, uint64_t data_offset,
                                           const std::vector<std::string>& names);

}  // namespace taco::format
