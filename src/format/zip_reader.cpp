#include "format/zip_reader.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <numeric>

#include "format/zip_constants.hpp"
#include "io/file.hpp"
#include "io/little_endian.hpp"
#include "taco/errors.hpp"

namespace taco::format {

namespace {

using namespace zip;  // signatures and record sizes
constexpr size_t kMaxComment = 0xFFFF;
constexpr uint32_t kMax32 = 0xFFFFFFFFu;
// General-purpose flag bits a reader must obey: 0 (encrypted) and 3 (data descriptor).
constexpr uint16_t kFlagDataDescriptor = 0x0008;
constexpr uint16_t kFlagsReadersObey = 0x0009;
// Index slots hold the upper 32 bits of the name's hash (a tag that rejects most mismatches
// without touching the entry) and the entry index + 1; 0 marks a free slot.
constexpr uint64_t kEmptySlot = 0;
constexpr uint64_t kTagMask = 0xFFFFFFFF00000000ull;
constexpr uint64_t kMaxEntries = 0xFFFFFFFEull;

uint64_t hash_name(std::string_view name) {
    return std::hash<std::string_view>{}(name);
}

// Local headers closer together than kMaxGap are fetched in one read of at most kWindow bytes.
constexpr uint64_t kWindow = uint64_t{1} << 20;
constexpr uint64_t kMaxGap = uint64_t{64} << 10;

std::string hex32(uint32_t v) {
    char buf[11];
    std::snprintf(buf, sizeof buf, "0x%08X", v);
    return buf;
}

std::string num(uint64_t v) {
    return std::to_string(v);
}

[[noreturn]] void fail(const std::string& path, const std::string& what) {
    throw FormatError(path + ": " + what);
}

std::string describe(const ZipEntry& e, size_t index) {
    return "entry '" + std::string(e.name) + "' (central directory record " + num(index) + ")";
}

// Where the end records put the central directory.
struct EndInfo {
    uint64_t count = 0;
    uint64_t cd_offset = 0;
    uint64_t cd_size = 0;
    uint64_t limit = 0;  // the central directory must end at or before this offset
    bool zip64 = false;
};

EndInfo read_end_records(const io::File& file, const std::string& path, uint64_t file_size) {
    if (file_size < kEndSize) {
        fail(path, "file is " + num(file_size) +
                       " bytes, too small for a ZIP end of central directory record (22 bytes)");
    }
    // The tail covers the longest possible comment and the ZIP64 locator in front of the record.
    const uint64_t tail_size =
        std::min<uint64_t>(file_size, kEndSize + kMaxComment + kZip64LocatorSize);
    const uint64_t tail_start = file_size - tail_size;
    std::vector<uint8_t> tail(tail_size);
    file.read_at(tail_start, tail.data(), tail.size());

    // The record is the last signature whose comment reaches exactly the end of the file.
    std::optional<size_t> found;
    std::optional<size_t> inconsistent;
    for (size_t i = tail.size() - kEndSize + 1; i-- > 0;) {
        if (io::load_le32(&tail[i]) != kEndSignature) continue;
        if (i + kEndSize + io::load_le16(&tail[i + 20]) == tail.size()) {
            found = i;
            break;
        }
        if (!inconsistent) inconsistent = i;
    }
    if (!found) {
        if (inconsistent) {
            const size_t i = *inconsistent;
            fail(path, "end of central directory record at " + num(tail_start + i) +
                           " declares a " + num(io::load_le16(&tail[i + 20])) +
                           "-byte comment, but the file ends " + num(tail.size() - i - kEndSize) +
                           " bytes after the record");
        }
        fail(path, "no ZIP end of central directory record in the last " + num(tail_size) +
                       " bytes: not a ZIP file, or truncated");
    }
    const uint8_t* end = &tail[*found];
    const uint64_t end_offset = tail_start + *found;

    EndInfo info;
    info.limit = end_offset;
    info.count = io::load_le16(end + 10);
    info.cd_size = io::load_le32(end + 12);
    info.cd_offset = io::load_le32(end + 16);
    const uint16_t disk = io::load_le16(end + 4);
    const uint16_t cd_disk = io::load_le16(end + 6);
    const uint16_t count_here = io::load_le16(end + 8);

    const bool has_locator =
        *found >= kZip64LocatorSize &&
        io::load_le32(&tail[*found - kZip64LocatorSize]) == kZip64LocatorSignature;
    if (!has_locator) {
        if (disk != 0 || cd_disk != 0 || count_here != info.count) {
            fail(path, "end of central directory record at " + num(end_offset) +
                           " describes a multi-disk archive (disk " + num(disk) +
                           ", central directory disk " + num(cd_disk) + ", " + num(count_here) +
                           " of " + num(info.count) + " entries here), which is not supported");
        }
        return info;
    }

    const uint8_t* locator = &tail[*found - kZip64LocatorSize];
    const uint64_t locator_offset = end_offset - kZip64LocatorSize;
    const uint64_t zip64_offset = io::load_le64(locator + 8);
    const uint32_t total_disks = io::load_le32(locator + 16);
    if (io::load_le32(locator + 4) != 0 || total_disks > 1) {
        fail(path, "ZIP64 locator at " + num(locator_offset) + " describes a multi-disk archive (" +
                       num(total_disks) + " disks), which is not supported");
    }
    if (zip64_offset > locator_offset || locator_offset - zip64_offset < kZip64EndSize) {
        fail(path, "ZIP64 locator at " + num(locator_offset) + " points to a ZIP64 end record at " +
                       num(zip64_offset) + ", which does not fit before the locator");
    }
    uint8_t record[kZip64EndSize];
    file.read_at(zip64_offset, record, sizeof record);
    if (io::load_le32(record) != kZip64EndSignature) {
        fail(path, "no ZIP64 end of central directory record at " + num(zip64_offset) +
                       " (signature " + hex32(io::load_le32(record)) +
                       ", expected 0x06064B50), although the locator at " + num(locator_offset) +
                       " points there");
    }
    if (io::load_le64(record + 4) < kZip64EndSize - 12) {
        fail(path, "ZIP64 end record at " + num(zip64_offset) + " declares size " +
                       num(io::load_le64(record + 4)) + ", expected at least 44");
    }
    if (io::load_le32(record + 16) != 0 || io::load_le32(record + 20) != 0 ||
        io::load_le64(record + 24) != io::load_le64(record + 32)) {
        fail(path, "ZIP64 end record at " + num(zip64_offset) +
                       " describes a multi-disk archive, which is not supported");
    }
    info.count = io::load_le64(record + 32);
    info.cd_size = io::load_le64(record + 40);
    info.cd_offset = io::load_le64(record + 48);
    info.limit = zip64_offset;
    info.zip64 = true;
    return info;
}

// Applies the ZIP64 extended-information extra field to the fields that hold the 0xFFFFFFFF
// sentinel; the extra stores exactly those, in the order usize, csize, offset.
void apply_zip64_extra(const std::string& path, ZipEntry& e, size_t index, const uint8_t* extra,
                       size_t extra_len, bool need_usize, bool need_csize, bool need_offset) {
    const uint8_t* p = extra;
    const uint8_t* end = extra + extra_len;
    while (end - p >= 4) {
        const uint16_t id = io::load_le16(p);
        const uint16_t len = io::load_le16(p + 2);
        if (static_cast<size_t>(end - p - 4) < len) break;
        if (id != kZip64ExtraId) {
            p += 4 + len;
            continue;
        }
        const size_t needed = 8 * (need_usize + need_csize + need_offset);
        if (len < needed) {
            fail(path, describe(e, index) + ": ZIP64 extra field has " + num(len) +
                           " bytes, expected at least " + num(needed) +
                           " for the fields marked 0xFFFFFFFF");
        }
        const uint8_t* v = p + 4;
        if (need_usize) e.uncompressed_size = io::load_le64(v), v += 8;
        if (need_csize) e.compressed_size = io::load_le64(v), v += 8;
        if (need_offset) e.local_header_offset = io::load_le64(v);
        return;
    }
    fail(path, describe(e, index) +
                   " has fields set to 0xFFFFFFFF but no ZIP64 extended information extra field");
}

// Checks the local header in `lfh` (30 + name bytes, read from the file) against its central
// directory record and returns the data offset.
uint64_t parse_local_header(const std::string& path, const ZipEntry& e, size_t index,
                            const uint8_t* lfh, uint64_t cd_offset) {
    const uint32_t signature = io::load_le32(lfh);
    if (signature != kLocalHeaderSignature) {
        fail(path, describe(e, index) + ": local header at " + num(e.local_header_offset) +
                       " has signature " + hex32(signature) + ", expected 0x04034B50");
    }
    const uint16_t name_len = io::load_le16(lfh + 26);
    if (name_len != e.name.size()) {
        fail(path, describe(e, index) + ": local header at " + num(e.local_header_offset) +
                       " has a " + num(name_len) + "-byte name, expected " + num(e.name.size()) +
                       " bytes");
    }
    const std::string_view local_name(reinterpret_cast<const char*>(lfh + kLocalHeaderFixed),
                                      name_len);
    if (local_name != e.name) {
        fail(path, describe(e, index) + ": local header at " + num(e.local_header_offset) +
                       " names '" + std::string(local_name) + "'");
    }
    const uint64_t data_offset =
        e.local_header_offset + kLocalHeaderFixed + name_len + io::load_le16(lfh + 28);
    if (data_offset > cd_offset || cd_offset - data_offset < e.compressed_size) {
        fail(path,
             describe(e, index) + ": data at " + num(data_offset) + " (" + num(e.compressed_size) +
                 " bytes) extends past the start of the central directory at " + num(cd_offset));
    }
    // The local header must tell every reader what the directory says: unzip, GDAL's /vsizip/
    // and streaming readers trust it, byte-range readers trust the directory. Sizes of
    // 0xFFFFFFFF are in the ZIP64 extra field; bit 3 defers CRC and sizes to a data descriptor.
    const uint16_t flags = io::load_le16(lfh + 6);
    const uint16_t method = io::load_le16(lfh + 8);
    std::string differs;
    if (method != e.method) {
        differs = "compression method " + num(method) + ", the directory says " + num(e.method);
    } else if ((flags & kFlagsReadersObey) != (e.flags & kFlagsReadersObey)) {
        differs = "flags " + hex32(flags) + ", the directory says " + hex32(e.flags);
    } else if (!(flags & kFlagDataDescriptor)) {
        const uint32_t crc = io::load_le32(lfh + 14);
        const uint32_t csize = io::load_le32(lfh + 18);
        const uint32_t usize = io::load_le32(lfh + 22);
        if (crc != e.crc) {
            differs = "CRC-32 " + num(crc) + ", the directory says " + num(e.crc);
        } else if ((csize != kMax32 && csize != e.compressed_size) ||
                   (usize != kMax32 && usize != e.uncompressed_size)) {
            differs = "sizes " + num(csize) + "/" + num(usize) + ", the directory says " +
                      num(e.compressed_size) + "/" + num(e.uncompressed_size);
        }
    }
    if (!differs.empty()) {
        fail(path, describe(e, index) + ": local header at " + num(e.local_header_offset) +
                       " gives " + differs);
    }
    return data_offset;
}

// Bytes needed to compare an entry's local header with its record.
uint64_t local_header_span(const ZipEntry& e) {
    return kLocalHeaderFixed + e.name.size();
}

void check_local_header_bounds(const std::string& path, const ZipEntry& e, size_t index,
                               uint64_t cd_offset) {
    if (e.local_header_offset > cd_offset ||
        cd_offset - e.local_header_offset < local_header_span(e)) {
        fail(path, describe(e, index) + ": local header at " + num(e.local_header_offset) +
                       " extends past the start of the central directory at " + num(cd_offset));
    }
}

// Fills data_offset for every entry, coalescing nearby local headers into one read each.
void resolve_data_offsets(const io::File& file, const std::string& path,
                          std::vector<ZipEntry>& entries, uint64_t cd_offset) {
    std::vector<uint32_t> order(entries.size());
    std::iota(order.begin(), order.end(), 0u);
    auto by_offset = [&](uint32_t a, uint32_t b) {
        return entries[a].local_header_offset < entries[b].local_header_offset;
    };
    if (!std::is_sorted(order.begin(), order.end(), by_offset)) {
        std::stable_sort(order.begin(), order.end(), by_offset);
    }
    std::vector<uint8_t> window;
    size_t i = 0;
    while (i < order.size()) {
        const uint64_t start = entries[order[i]].local_header_offset;
        uint64_t stop = start + local_header_span(entries[order[i]]);
        size_t j = i + 1;
        while (j < order.size()) {
            const ZipEntry& next = entries[order[j]];
            const uint64_t next_stop = next.local_header_offset + local_header_span(next);
            if (next.local_header_offset > stop + kMaxGap || next_stop - start > kWindow) break;
            stop = std::max(stop, next_stop);
            ++j;
        }
        window.resize(stop - start);
        file.read_at(start, window.data(), window.size());
        for (size_t k = i; k < j; ++k) {
            ZipEntry& e = entries[order[k]];
            e.data_offset = parse_local_header(path, e, order[k],
                                               &window[e.local_header_offset - start], cd_offset);
        }
        i = j;
    }
}

// Parses every central directory record in `cd` (already read whole); the names point into `cd`.
std::vector<ZipEntry> parse_records(const std::string& path, const uint8_t* cd,
                                    const EndInfo& end) {
    std::vector<ZipEntry> entries(end.count);
    uint64_t pos = 0;
    for (size_t i = 0; i < end.count; ++i) {
        // Built only for an error message: a string per record would dominate the parse time.
        auto where = [&] {
            return "central directory record " + num(i) + " at " + num(end.cd_offset + pos);
        };
        if (end.cd_size - pos < kCentralHeaderFixed) {
            fail(path, where() + " is truncated: the directory ends at " +
                           num(end.cd_offset + end.cd_size));
        }
        const uint8_t* r = cd + pos;
        if (io::load_le32(r) != kCentralHeaderSignature) {
            fail(path,
                 where() + " has signature " + hex32(io::load_le32(r)) + ", expected 0x02014B50");
        }
        const size_t name_len = io::load_le16(r + 28);
        const size_t extra_len = io::load_le16(r + 30);
        const size_t comment_len = io::load_le16(r + 32);
        const uint64_t record_size = kCentralHeaderFixed + name_len + extra_len + comment_len;
        if (end.cd_size - pos < record_size) {
            fail(path, where() + " (" + num(record_size) +
                           " bytes) is truncated: the directory ends at " +
                           num(end.cd_offset + end.cd_size));
        }
        ZipEntry& e = entries[i];
        e.name = std::string_view(reinterpret_cast<const char*>(r + kCentralHeaderFixed), name_len);
        e.flags = io::load_le16(r + 8);
        e.method = io::load_le16(r + 10);
        e.dos_time = io::load_le16(r + 12);
        e.dos_date = io::load_le16(r + 14);
        e.crc = io::load_le32(r + 16);
        e.compressed_size = io::load_le32(r + 20);
        e.uncompressed_size = io::load_le32(r + 24);
        e.external_attr = io::load_le32(r + 38);
        e.local_header_offset = io::load_le32(r + 42);
        const bool need_usize = e.uncompressed_size == kMax32;
        const bool need_csize = e.compressed_size == kMax32;
        const bool need_offset = e.local_header_offset == kMax32;
        if (need_usize || need_csize || need_offset) {
            apply_zip64_extra(path, e, i, r + kCentralHeaderFixed + name_len, extra_len, need_usize,
                              need_csize, need_offset);
        }
        check_local_header_bounds(path, e, i, end.cd_offset);
        pos += record_size;
    }
    if (pos != end.cd_size) {
        fail(path, "central directory at " + num(end.cd_offset) + " (" + num(end.cd_size) +
                       " bytes) has " + num(end.cd_size - pos) + " bytes left after the " +
                       num(end.count) + " records the end record lists");
    }
    return entries;
}

// Moves the names into one compact shared string, so the directory no longer needs `cd`. The string
// is filled in place after a single reserve, so the views taken while appending stay valid.
std::shared_ptr<const std::string> compact_names(std::vector<ZipEntry>& entries) {
    size_t total = 0;
    for (const ZipEntry& e : entries) total += e.name.size();
    auto names = std::make_shared<std::string>();
    names->reserve(total);
    for (ZipEntry& e : entries) {
        const size_t at = names->size();
        names->append(e.name);
        e.name = std::string_view(names->data() + at, e.name.size());
    }
    return names;
}

// The end records, and that the central directory they describe fits in the file before them.
EndInfo read_checked_end_records(const io::File& file, const std::string& path,
                                 uint64_t file_size) {
    const EndInfo end = read_end_records(file, path, file_size);
    if (end.cd_offset > file_size || file_size - end.cd_offset < end.cd_size) {
        fail(path, "central directory at " + num(end.cd_offset) + " (" + num(end.cd_size) +
                       " bytes) extends past end of file (size " + num(file_size) + ")");
    }
    if (end.cd_offset + end.cd_size > end.limit) {
        fail(path, "central directory at " + num(end.cd_offset) + " (" + num(end.cd_size) +
                       " bytes) overlaps the end record at " + num(end.limit));
    }
    if (end.count > end.cd_size / kCentralHeaderFixed || end.count > kMaxEntries) {
        fail(path, "end record lists " + num(end.count) +
                       " entries, but the central directory at " + num(end.cd_offset) +
                       " is only " + num(end.cd_size) + " bytes");
    }
    return end;
}

}  // namespace

ZipDirectory read_zip_directory(const io::File& file, const std::string& path,
                                const ZipReadOptions& options) {
    ZipDirectory dir;
    dir.file_size_ = file.size();
    const EndInfo end = read_checked_end_records(file, path, dir.file_size_);
    dir.cd_offset_ = end.cd_offset;
    dir.cd_size_ = end.cd_size;
    dir.zip64_ = end.zip64;

    auto cd = std::make_unique_for_overwrite<uint8_t[]>(end.cd_size);
    file.read_at(end.cd_offset, cd.get(), end.cd_size);
    dir.entries_ = parse_records(path, cd.get(), end);
    dir.names_ = compact_names(dir.entries_);
    dir.build_index(path);
    if (options.resolve_data_offsets) {
        resolve_data_offsets(file, path, dir.entries_, end.cd_offset);
    }
    return dir;
}

CentralDirectoryLocation locate_central_directory(const io::File& file, const std::string& path) {
    const EndInfo end = read_checked_end_records(file, path, file.size());
    return {end.cd_offset, end.cd_size, end.count};
}

void ZipDirectory::build_index(const std::string& path) {
    size_t capacity = 8;
    while (capacity < 2 * entries_.size()) capacity *= 2;
    index_.assign(capacity, kEmptySlot);
    const size_t mask = capacity - 1;
    // Each insert is a cache miss into a table of up to tens of MB; hashing first and prefetching
    // a few slots ahead overlaps those misses.
    constexpr size_t kPrefetchDistance = 8;
    std::vector<uint64_t> hashes(entries_.size());
    for (size_t i = 0; i < hashes.size(); ++i) hashes[i] = hash_name(entries_[i].name);
    for (size_t i = 0; i < entries_.size(); ++i) {
        if (i + kPrefetchDistance < hashes.size()) {
            __builtin_prefetch(&index_[hashes[i + kPrefetchDistance] & mask], 1);
        }
        const std::string_view name = entries_[i].name;
        const uint64_t hash = hashes[i];
        size_t slot = hash & mask;
        for (; index_[slot] != kEmptySlot; slot = (slot + 1) & mask) {
            const uint64_t other = (index_[slot] & ~kTagMask) - 1;
            if (((index_[slot] ^ hash) & kTagMask) == 0 && entries_[other].name == name) {
                fail(path, "duplicate entry name '" + std::string(name) +
                               "' (central directory records " + num(other) + " and " + num(i) +
                               ")");
            }
        }
        index_[slot] = (hash & kTagMask) | (i + 1);
    }
}

uint64_t read_entry_data_offset(const io::File& file, const std::string& path,
                                const ZipDirectory& directory, size_t index) {
    const ZipEntry& e = directory.entries().at(index);
    std::vector<uint8_t> lfh(local_header_span(e));
    file.read_at(e.local_header_offset, lfh.data(), lfh.size());
    return parse_local_header(path, e, index, lfh.data(), directory.central_directory_offset());
}

std::optional<size_t> ZipDirectory::index_of(std::string_view name) const {
    if (index_.empty()) return std::nullopt;
    const size_t mask = index_.size() - 1;
    const uint64_t hash = hash_name(name);
    for (size_t slot = hash & mask; index_[slot] != kEmptySlot; slot = (slot + 1) & mask) {
        if (((index_[slot] ^ hash) & kTagMask) != 0) continue;
        const size_t i = (index_[slot] & ~kTagMask) - 1;
        if (entries_[i].name == name) return i;
    }
    return std::nullopt;
}

const ZipEntry* ZipDirectory::find(std::string_view name) const {
    const std::optional<size_t> i = index_of(name);
    return i ? &entries_[*i] : nullptr;
}

}  // namespace taco::format
