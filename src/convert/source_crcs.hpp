// CRC-32s of sample bytes that a source ZIP already records in its central directory, so an
// export into a ZIP copies them in the kernel instead of reading every byte to recompute them.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace taco::io {
class ByteSource;
}

namespace taco::convert {

class SourceCrcs {
  public:
    /// The CRC of the stored (method 0) entry whose data is exactly [offset, offset + size) of
    /// the local file `source`; nullopt when `source` is not a readable ZIP (a FOLDER's sample
    /// file: offset 0) or no entry matches, and the caller computes it. Each source's central
    /// directory is read once, on first use.
    std::optional<uint32_t> find(const io::ByteSource& source, uint64_t offset, uint64_t size);

  private:
    struct Entry {
        uint64_t local_header_offset;
        uint64_t min_data_offset;  // local header + 30 + name: the extra field may follow
        uint64_t size;
        uint32_t crc;
    };
    // Per source name: its stored entries by local header offset (empty: not a ZIP).
    std::map<std::string, std::vector<Entry>> by_source_;
};

}  // namespace taco::convert
