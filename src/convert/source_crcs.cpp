#include "convert/source_crcs.hpp"

#include <unistd.h>

#include <algorithm>

#include "format/zip_reader.hpp"
#include "io/byte_source.hpp"
#include "io/file.hpp"

namespace taco::convert {
namespace {

// A local header's extra field is at most 65,535 bytes.
constexpr uint64_t kMaxExtra = 65535;

}  // namespace

std::optional<uint32_t> SourceCrcs::find(const io::ByteSource& source, uint64_t offset,
                                         uint64_t size) {
    if (offset == 0) return std::nullopt;  // a whole file (FOLDER sample), not a ZIP entry
    auto it = by_source_.find(source.name());
    if (it == by_source_.end()) {
        std::vector<Entry> entries;
        try {
            const io::File f = io::File::open_read(source.name());
            format::ZipReadOptions o;
            o.resolve_data_offsets = false;  // one read of the directory, no local headers
            const format::ZipDirectory dir = format::read_zip_directory(f, source.name(), o);
            entries.reserve(dir.size());
            for (const format::ZipEntry& e : dir.entries()) {
                if (e.method != 0 || e.compressed_size != e.uncompressed_size) continue;
                entries.push_back({e.local_header_offset,
                                   e.local_header_offset + 30 + e.name.size(), e.uncompressed_size,
                                   e.crc});
            }
            std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
                return a.local_header_offset < b.local_header_offset;
            });
        } catch (const std::exception&) {
            entries.clear();  // not a ZIP we can vouch for: the CRC is computed while copying
        }
        it = by_source_.emplace(source.name(), std::move(entries)).first;
    }
    const std::vector<Entry>& entries = it->second;
    // The last entry whose local header starts before the data: the data must follow its name
    // (and at most a maximal extra field), with the same size.
    auto after =
        std::upper_bound(entries.begin(), entries.end(), offset,
                         [](uint64_t off, const Entry& e) { return off < e.local_header_offset; });
    if (after == entries.begin()) return std::nullopt;
    const Entry& e = *std::prev(after);
    if (offset < e.min_data_offset || offset > e.min_data_offset + kMaxExtra || e.size != size)
        return std::nullopt;
    // Exactly this entry's data: its local header's own name and extra lengths end at `offset`.
    uint8_t lengths[4];
    const int fd = source.local_fd();
    if (fd < 0 || ::pread(fd, lengths, 4, static_cast<off_t>(e.local_header_offset + 26)) != 4)
        return std::nullopt;
    const uint64_t data = e.local_header_offset + 30 + (lengths[0] | (lengths[1] << 8)) +
                          (lengths[2] | (lengths[3] << 8));
    if (data != offset) return std::nullopt;
    return e.crc;
}

}  // namespace taco::convert
