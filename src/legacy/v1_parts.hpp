// The files of a v1 dataset: one, or the `<name>.NNNN.part.<taco|tortilla>` files pytortilla
// splits a large one into (numbered from 0000; the spec's example numbers from 0001).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace taco::legacy {

/// The parts to open for `path`, in order: {path} for a single file; every sibling part for a
/// local part (or a local name whose parts exist without it). A remote part is returned alone:
/// its header says how many there are (remote_parts()).
std::vector<std::string> local_parts(const std::string& path);

/// The URLs of all `count` parts of the remote part `url`; {url} when it is not a part name.
std::vector<std::string> remote_parts(const std::string& url, uint64_t count);

/// True when `path` names a `.NNNN.part.` file.
bool is_part_name(const std::string& path);

}  // namespace taco::legacy
