// Copying the bytes of one FILE sample, wherever they are, without decoding them: from a local
// file or ZIP range with copy_file_range (the kernel copies, or shares blocks where the
// filesystem can), from a remote dataset with range reads.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "format/zip_writer.hpp"
#include "query/dataset_context.hpp"
#include "query/navigation.hpp"

namespace taco::convert {

class SourceCrcs;

/// Copies the sample at `vsi` (its internal:gdal_vsi) to the start of the empty file `out_fd`;
/// returns its size. `sample` names it in errors, `out_name` names the output file.
uint64_t copy_sample_to_file(query::DatasetContext& ctx, std::string_view vsi,
                             const std::string& sample, int out_fd, const std::string& out_name);

/// copy_sample_to_file for a sample already located (query::locate_file). Safe to call from
/// several threads at once for local sources (positional copies only); a remote source's reads
/// go through its own client, so callers copy remote samples from one thread.
uint64_t copy_range_to_file(const query::FileRange& r, const std::string& sample, int out_fd,
                            const std::string& out_name);

/// Adds the sample at `vsi` as entry `entry` of `zip`; returns the entry's index.
/// Bytes of a local source ZIP whose CRC its central directory records (`crcs`) are copied by
/// the kernel without being read; other local bytes of kKernelCopyMin or more are copied by the
/// kernel too, their CRC summed from the archive behind the copy (ZipWriter); the rest stream
/// through the writer, which computes the CRC.
size_t copy_sample_to_zip(query::DatasetContext& ctx, std::string_view vsi,
                          const std::string& sample, format::ZipWriter& zip, std::string_view entry,
                          SourceCrcs& crcs);

}  // namespace taco::convert
