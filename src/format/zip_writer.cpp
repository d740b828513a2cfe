#include "format/zip_writer.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <optional>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <vector>

#include "format/zip_constants.hpp"
#include "io/cancel.hpp"
#include "io/crc32.hpp"
#include "io/crc_behind.hpp"
#include "io/file.hpp"
#include "io/little_endian.hpp"
#include "io/source_file.hpp"
#include "model/utf8.hpp"
#include "taco/errors.hpp"

namespace taco::format {

namespace {

constexpr size_t kBufferSize = size_t{4} << 20;
// Holes are only left for whole, aligned blocks of this size, so they match filesystem blocks.
constexpr uint64_t kHoleBlock = uint64_t{64} << 10;
constexpr uint64_t kMax32 = 0xFFFFFFFFu;
constexpr size_t kMaxNameLength = 0xFFFF;

using namespace zip;  // signatures and record sizes

// Values libzip writes (FORMAT.md §2.5, §2.6).
constexpr uint16_t kVersionMadeBy = 0x033F;  // UNIX, spec 6.3
constexpr uint16_t kVersionStore = 10;
constexpr uint16_t kVersionZip64 = 45;
constexpr uint16_t kFlagUtf8Name = 0x0800;

uint32_t clamp32(uint64_t v) {
    return static_cast<uint32_t>(std::min(v, kMax32));
}

// Validates an entry name and returns its general-purpose flags. Like libzip, bit 11 (UTF-8) is set
// only for names that are not plain ASCII, so ASCII names keep the reference's flags of 0.
uint16_t name_flags(std::string_view name, const std::string& archive) {
    if (name.empty()) throw FormatError(archive + ": ZIP entry name is empty");
    if (name.size() > kMaxNameLength) {
        throw FormatError(archive + ": ZIP entry name of " + std::to_string(name.size()) +
                          " bytes is too long (at most 65535): '" +
                          std::string(name.substr(0, 64)) + "...'");
    }
    bool ascii = std::all_of(name.begin(), name.end(),
                             [](char c) { return static_cast<unsigned char>(c) < 0x80; });
    if (ascii) return 0;
    // A non-UTF-8 name would be read back as CP437 by other tools and no longer match the metadata.
    if (!model::is_valid_utf8(name)) {
        throw FormatError(archive + ": ZIP entry name '" + std::string(name) +
                          "' is not valid UTF-8");
    }
    return kFlagUtf8Name;
}

bool all_zero(const uint8_t* p, size_t n) {
    // Comparing the block with itself shifted by one byte uses the vectorized memcmp.
    return n == 0 || (p[0] == 0 && std::memcmp(p, p + 1, n - 1) == 0);
}

uint64_t local_header_extra(uint64_t size) {
    return size >= kMax32 ? 20 : 0;
}

// Closes a source descriptor on every path out of add_file.
struct FdCloser {
    int fd;
    ~FdCloser() {
        if (fd >= 0) ::close(fd);
    }
};

}  // namespace

DosDateTime to_dos_date_time(std::time_t t) {
    std::tm tm{};
    if (localtime_r(&t, &tm) == nullptr) {
        return DosDateTime{0, (0 << 9) | (1 << 5) | 1};  // 1980-01-01 00:00:00
    }
    // libzip's rule, so that tacozip's bytes come out: a year before 1980 becomes 1980 with the
    // rest of the date and time kept (1979-12-31 23:59:59 -> 1980-12-31 23:59:58), and a year
    // from 2108 on wraps in the 7-bit year field (2108 -> 1980), as the cast below does.
    if (tm.tm_year < 80) tm.tm_year = 80;
    return DosDateTime{
        static_cast<uint16_t>((tm.tm_hour << 11) | (tm.tm_min << 5) | (tm.tm_sec / 2)),
        static_cast<uint16_t>(((tm.tm_year - 80) << 9) | ((tm.tm_mon + 1) << 5) | tm.tm_mday)};
}

uint64_t zip_local_header_size(std::string_view name, uint64_t size) {
    return kLocalHeaderFixed + name.size() + local_header_extra(size);
}

ZipWriter::ZipWriter(int fd, std::string name_for_errors)
    : fd_(fd),
      name_(std::move(name_for_errors)),
      buffer_(std::make_unique_for_overwrite<uint8_t[]>(kBufferSize)),
      created_(to_dos_date_time(std::time(nullptr))) {
    struct stat st {};
    if (::fstat(fd_, &st) != 0) {
        throw IoError("cannot stat '" + name_ + "': " + std::strerror(errno));
    }
    sparse_from_ = S_ISREG(st.st_mode) ? static_cast<uint64_t>(st.st_size) : UINT64_MAX;
    preallocate_ = S_ISREG(st.st_mode);
}

// Stops the CRC helper (an archive abandoned before finish() needs none of its sums).
ZipWriter::~ZipWriter() = default;

size_t ZipWriter::add_bytes(std::string_view name, std::string_view data, const EntryAttrs& attrs) {
    const uint16_t flags = name_flags(name, name_);
    check_usable();
    failed_ = true;
    const size_t index = begin_entry(
        name, flags, data.size(), io::crc32(0, data.data(), data.size()),
        attrs.time.value_or(created_), attrs.external_attr.value_or(kExternalAttrRegularFile));
    append(data.data(), data.size());
    failed_ = false;
    return index;
}

size_t ZipWriter::add_file(std::string_view name, const std::filesystem::path& src,
                           const EntryAttrs& attrs) {
    const io::SourceFile file = io::open_source(src.string());
    FdCloser closer{file.fd};
    return add_file(name, file, src.string(), attrs);
}

size_t ZipWriter::add_file(std::string_view name, const io::SourceFile& src,
                           const std::string& src_name, const EntryAttrs& attrs) {
    const uint16_t flags = name_flags(name, name_);
    check_usable();
    if (src.error) std::rethrow_exception(src.error);
    const struct stat& st = src.st;
    if (!S_ISREG(st.st_mode)) {
        throw IoError("cannot add '" + src_name + "' to '" + name_ + "': not a regular file");
    }
    const auto size = static_cast<uint64_t>(st.st_size);
    const DosDateTime time = attrs.time ? *attrs.time : to_dos_date_time(st.st_mtime);
    // libzip's (and so tacozip's): the mode in the high half, and the MS-DOS read-only bit
    // when the owner may not write the file (FORMAT.md §2.5).
    const uint32_t external_attr = attrs.external_attr.value_or(
        static_cast<uint32_t>(st.st_mode & 0xFFFF) << 16 | ((st.st_mode & S_IWUSR) ? 0u : 1u));

    // st_blocks below the size means the file has holes; only then are they worth looking for.
    const bool sparse = static_cast<uint64_t>(st.st_blocks) * 512 < size;
    if (!src.loaded && !sparse && size >= kKernelCopyMin) {
        // The kernel copies page-cache pages into page-cache pages: no copy through user space,
        // the costliest part of a buffered copy (FORMAT-DECISIONS, "create's copy").
        EntryAttrs entry_attrs;
        entry_attrs.time = time;
        entry_attrs.external_attr = external_attr;
        const size_t index =
            kernel_copy(name, src.fd, 0, size, std::nullopt, src_name, entry_attrs);
        // The CRC is summed from the archive, so it always matches what was stored; but a file
        // that grew, shrank or was rewritten while it was copied holds bytes of two moments
        // (and no longer the sample's size): refused, as a file that changed size always was.
        struct stat after {};
        if (::fstat(src.fd, &after) != 0 || after.st_size != st.st_size ||
            after.st_mtim.tv_sec != st.st_mtim.tv_sec ||
            after.st_mtim.tv_nsec != st.st_mtim.tv_nsec) {
            failed_ = true;
            throw IoError(src_name + " changed while it was being copied into '" + name_ + "'");
        }
        return index;
    }
    failed_ = true;
    size_t index;
    if (src.loaded) {
        index = begin_entry(name, flags, size, src.crc, time, external_attr);
        copy_from_memory(src.contents, size, src_name);
    } else {
        // Read-ahead hint for big files only: for small ones the syscall costs more than it saves.
        if (size >= (uint64_t{1} << 20)) ::posix_fadvise(src.fd, 0, 0, POSIX_FADV_SEQUENTIAL);
        // The CRC goes into the local header before the data, so it is patched in after the copy.
        index = begin_entry(name, flags, size, 0, time, external_attr);
        set_crc(index, copy_from_fd(src.fd, size, src_name, sparse));
    }
    failed_ = false;
    return index;
}

size_t ZipWriter::add_fd(std::string_view name, int src_fd, uint64_t size,
                         const EntryAttrs& attrs) {
    const uint16_t flags = name_flags(name, name_);
    check_usable();
    failed_ = true;
    const size_t index = begin_entry(name, flags, size, 0, attrs.time.value_or(created_),
                                     attrs.external_attr.value_or(kExternalAttrRegularFile));
    // No hole probing: lseek would move the caller's file position.
    const uint32_t crc = copy_from_fd(
        src_fd, size, "descriptor " + std::to_string(src_fd) + " ('" + std::string(name) + "')",
        false);
    set_crc(index, crc);
    failed_ = false;
    return index;
}

size_t ZipWriter::add_fd_range(std::string_view name, int src_fd, uint64_t offset, uint64_t size,
                               const std::string& src_name, const EntryAttrs& attrs) {
    const uint16_t flags = name_flags(name, name_);
    check_usable();
    failed_ = true;
    const size_t index = begin_entry(name, flags, size, 0, attrs.time.value_or(created_),
                                     attrs.external_attr.value_or(kExternalAttrRegularFile));
    set_crc(index, copy_from_fd(src_fd, size, src_name, false, offset));
    failed_ = false;
    return index;
}

size_t ZipWriter::add_fd_range_with_crc(std::string_view name, int src_fd, uint64_t offset,
                                        uint64_t size, uint32_t crc, const std::string& src_name,
                                        const EntryAttrs& attrs) {
    return kernel_copy(name, src_fd, offset, size, crc, src_name, attrs);
}

size_t ZipWriter::add_fd_range_kernel(std::string_view name, int src_fd, uint64_t offset,
                                      uint64_t size, const std::string& src_name,
                                      const EntryAttrs& attrs) {
    return kernel_copy(name, src_fd, offset, size, std::nullopt, src_name, attrs);
}

size_t ZipWriter::kernel_copy(std::string_view name, int src_fd, uint64_t offset, uint64_t size,
                              std::optional<uint32_t> known, const std::string& src_name,
                              const EntryAttrs& attrs) {
    const uint32_t crc = known.value_or(0);
    if (size < kKernelCopyMin) return add_fd_range(name, src_fd, offset, size, src_name, attrs);
    const uint16_t flags = name_flags(name, name_);
    check_usable();
    failed_ = true;
    const size_t index = begin_entry(name, flags, size, crc, attrs.time.value_or(created_),
                                     attrs.external_attr.value_or(kExternalAttrRegularFile));
    records_[index].crc = crc;
    flush();  // the header is on disk; the data goes straight after it
    const uint64_t data_at = flushed_;
    // Blocks allocated up front: ext4 then skips its per-page delayed-allocation work in the
    // copy (about a fifth of its CPU here), as write_new does for buffered bytes.
    preallocate(flushed_, size);
    loff_t in_off = static_cast<loff_t>(offset), out_off = static_cast<loff_t>(flushed_);
    uint64_t done = 0;
    while (done < size) {
        io::throw_if_cancelled(("copying " + src_name).c_str());
        const size_t piece =
            static_cast<size_t>(std::min<uint64_t>(size - done, uint64_t{64} << 20));
        const ssize_t c = ::copy_file_range(src_fd, &in_off, fd_, &out_off, piece, 0);
        if (c > 0) {
            done += static_cast<uint64_t>(c);
            continue;
        }
        if (c == 0) {
            throw IoError(src_name + " ended while its bytes were copied (expected " +
                          std::to_string(size) + " bytes at offset " + std::to_string(offset) +
                          ")");
        }
        if (errno == EINTR) continue;
        // copy_file_range cannot say which side failed (EIO, ENOSPC, ETXTBSY): both are named.
        if (errno != EXDEV && errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP)
            throw IoError("cannot copy " + src_name + " into " + name_ + ": " +
                          std::strerror(errno));
        break;  // not offered between these two files: the buffered copy below
    }
    flushed_ += done;
    if (done < size) {
        // The rest through the staging buffer; its CRC is not needed (the caller gave it).
        copy_from_fd(src_fd, size - done, src_name, false, offset + done);
    }
    if (!known) {
        // Summed from the archive, not the source: the bytes summed are the bytes stored, even
        // if another process writes to the source meanwhile (a write through a shared mapping
        // changes neither its size nor its mtime, so no check of the source could tell).
        flush();  // the buffered rest, if any, is in the file too
        crc_from_archive(index, data_at, size);
    }
    failed_ = false;
    return index;
}

void ZipWriter::crc_from_archive(size_t index, uint64_t offset, uint64_t size) {
    if (!behind_ && std::thread::hardware_concurrency() > 1) {
        try {
            behind_ = std::make_unique<io::CrcBehind>(fd_, name_);
        } catch (const std::system_error&) {
            // No thread to be had: summed here instead.
        }
    }
    if (!behind_) {
        set_crc(index, io::crc_of_range(fd_, offset, size, name_));
        return;
    }
    collect_crcs(false);
    behind_->push(index, offset, size);
}

void ZipWriter::collect_crcs(bool all) {
    if (!behind_) return;
    for (const auto& [index, crc] : behind_->collect(all)) set_crc(index, crc);
}

uint32_t ZipWriter::crc_of(size_t i) {
    if (behind_ && behind_->pending(i)) collect_crcs(true);
    return records_.at(i).crc;
}

void ZipWriter::rewrite_entry_data(size_t index, std::string_view data) {
    check_usable();
    if (index >= records_.size()) {
        throw std::out_of_range("ZipWriter::rewrite_entry_data: no entry " + std::to_string(index) +
                                " (have " + std::to_string(records_.size()) + ")");
    }
    // Its old bytes' sum, if still coming, must not land after the new one.
    if (behind_ && behind_->pending(index)) collect_crcs(true);
    const Record& r = records_[index];
    if (data.size() != r.size) {
        throw std::invalid_argument(
            "ZipWriter::rewrite_entry_data: entry '" + std::string(record_name(r)) + "' holds " +
            std::to_string(r.size) + " bytes, new data has " + std::to_string(data.size()));
    }
    failed_ = true;
    const uint64_t data_offset =
        r.local_header_offset + kLocalHeaderFixed + r.name_length + local_header_extra(r.size);
    patch(data_offset, data.data(), data.size());
    set_crc(index, io::crc32(0, data.data(), data.size()));
    failed_ = false;
}

ZipEntryInfo ZipWriter::entry(size_t i) const {
    const Record& r = records_.at(i);
    ZipEntryInfo info;
    info.name = record_name(r);
    info.local_header_offset = r.local_header_offset;
    info.data_offset =
        r.local_header_offset + kLocalHeaderFixed + r.name_length + local_header_extra(r.size);
    info.size = r.size;
    info.crc = r.crc;
    info.external_attr = r.external_attr;
    info.dos_time = r.dos_time;
    info.dos_date = r.dos_date;
    return info;
}

void ZipWriter::finish() {
    check_usable();
    failed_ = true;
    collect_crcs(true);  // every local header holds its CRC before the directory repeats it
    const uint64_t cd_offset = position();
    bool zip64 = records_.size() > 0xFFFF;
    for (const Record& r : records_) {
        const bool big = r.size >= kMax32;
        const bool far = r.local_header_offset >= kMax32;
        // The ZIP64 extra holds only the overflowing fields, in the order usize, csize, offset.
        const uint16_t extra_data = (big ? 16 : 0) + (far ? 8 : 0);
        const uint16_t extra = extra_data ? 4 + extra_data : 0;
        uint8_t* p = reserve(kCentralHeaderFixed + r.name_length + extra);
        io::store_le32(p, kCentralHeaderSignature);
        io::store_le16(p + 4, kVersionMadeBy);
        io::store_le16(p + 6, (big || far) ? kVersionZip64 : kVersionStore);
        io::store_le16(p + 8, r.flags);
        io::store_le16(p + 10, 0);  // STORE
        io::store_le16(p + 12, r.dos_time);
        io::store_le16(p + 14, r.dos_date);
        io::store_le32(p + 16, r.crc);
        io::store_le32(p + 20, clamp32(r.size));
        io::store_le32(p + 24, clamp32(r.size));
        io::store_le16(p + 28, r.name_length);
        io::store_le16(p + 30, extra);
        io::store_le16(p + 32, 0);  // comment length
        io::store_le16(p + 34, 0);  // disk number
        io::store_le16(p + 36, 0);  // internal attributes
        io::store_le32(p + 38, r.external_attr);
        io::store_le32(p + 42, clamp32(r.local_header_offset));
        std::memcpy(p + kCentralHeaderFixed, names_.data() + r.name_offset, r.name_length);
        uint8_t* x = p + kCentralHeaderFixed + r.name_length;
        if (extra) {
            io::store_le16(x, kZip64ExtraId);
            io::store_le16(x + 2, extra_data);
            x += 4;
            if (big) {
                io::store_le64(x, r.size);
                io::store_le64(x + 8, r.size);
                x += 16;
            }
            if (far) io::store_le64(x, r.local_header_offset);
        }
        used_ += kCentralHeaderFixed + r.name_length + extra;
        zip64 = zip64 || big || far;
    }
    const uint64_t cd_size = position() - cd_offset;
    zip64 = zip64 || cd_offset >= kMax32 || cd_size >= kMax32;
    const uint64_t count = records_.size();

    if (zip64) {
        const uint64_t zip64_end_offset = position();
        uint8_t* p = reserve(kZip64EndSize + kZip64LocatorSize);
        io::store_le32(p, kZip64EndSignature);
        io::store_le64(p + 4, kZip64EndSize - 12);  // size of the rest of the record
        io::store_le16(p + 12, kVersionZip64);      // made by
        io::store_le16(p + 14, kVersionZip64);      // needed
        io::store_le32(p + 16, 0);                  // this disk
        io::store_le32(p + 20, 0);                  // disk with the central directory
        io::store_le64(p + 24, count);
        io::store_le64(p + 32, count);
        io::store_le64(p + 40, cd_size);
        io::store_le64(p + 48, cd_offset);
        p += kZip64EndSize;
        io::store_le32(p, kZip64LocatorSignature);
        io::store_le32(p + 4, 0);  // disk with the ZIP64 end record
        io::store_le64(p + 8, zip64_end_offset);
        io::store_le32(p + 16, 1);  // total disks
        used_ += kZip64EndSize + kZip64LocatorSize;
    }
    uint8_t* p = reserve(kEndSize);
    const auto count16 = static_cast<uint16_t>(std::min<uint64_t>(count, 0xFFFF));
    io::store_le32(p, kEndSignature);
    io::store_le16(p + 4, 0);
    io::store_le16(p + 6, 0);
    io::store_le16(p + 8, count16);
    io::store_le16(p + 10, count16);
    io::store_le32(p + 12, clamp32(cd_size));
    io::store_le32(p + 16, clamp32(cd_offset));
    io::store_le16(p + 20, 0);  // comment length
    used_ += kEndSize;
    flush();
    finished_ = true;
    failed_ = false;
}

size_t ZipWriter::begin_entry(std::string_view name, uint16_t flags, uint64_t size, uint32_t crc,
                              DosDateTime time, uint32_t external_attr) {
    const bool big = size >= kMax32;
    const size_t header = kLocalHeaderFixed + name.size() + local_header_extra(size);
    const uint64_t offset = position();
    uint8_t* p = reserve(header);
    io::store_le32(p, kLocalHeaderSignature);
    io::store_le16(p + 4, big ? kVersionZip64 : kVersionStore);
    io::store_le16(p + 6, flags);
    io::store_le16(p + 8, 0);  // STORE
    io::store_le16(p + 10, time.time);
    io::store_le16(p + 12, time.date);
    io::store_le32(p + 14, crc);
    io::store_le32(p + 18, clamp32(size));
    io::store_le32(p + 22, clamp32(size));
    io::store_le16(p + 26, static_cast<uint16_t>(name.size()));
    io::store_le16(p + 28, big ? 20 : 0);
    std::memcpy(p + kLocalHeaderFixed, name.data(), name.size());
    if (big) {
        uint8_t* x = p + kLocalHeaderFixed + name.size();
        io::store_le16(x, kZip64ExtraId);
        io::store_le16(x + 2, 16);
        io::store_le64(x + 4, size);
        io::store_le64(x + 12, size);
    }
    used_ += header;
    records_.push_back(Record{offset, size, names_.size(), crc, external_attr,
                              static_cast<uint16_t>(name.size()), flags, time.time, time.date});
    names_.append(name);
    return records_.size() - 1;
}

uint32_t ZipWriter::copy_from_fd(int src_fd, uint64_t size, const std::string& src_name,
                                 bool probe_holes, uint64_t base) {
    // Reads land directly in the staging buffer right after the local header, so each byte is
    // copied once into user space and once out, with the CRC computed while it is still in cache.
    // Known holes are zero-filled instead of read: the kernel would only zero pages and copy them.
    uint32_t crc = 0;
    uint64_t done = 0;
    uint64_t hole_end = 0;  // [done, hole_end) is a hole
    uint64_t data_end = 0;  // [done, data_end) is data
    while (done < size) {
        if (used_ == kBufferSize) {
            io::throw_if_cancelled(("copying " + src_name).c_str());  // every 4 MiB of a big file
            flush();
        }
        if (probe_holes && done >= hole_end && done >= data_end) {
            const off_t data = ::lseek(src_fd, static_cast<off_t>(base + done), SEEK_DATA);
            if (data < 0) {
                // ENXIO: no data up to the end of the file, which is a hole unless the file
                // shrank (then plain reads report it). Any other error: no hole support.
                struct stat st {};
                if (errno == ENXIO && ::fstat(src_fd, &st) == 0 &&
                    static_cast<uint64_t>(st.st_size) >= size) {
                    hole_end = size;
                } else {
                    probe_holes = false;
                }
            } else if (static_cast<uint64_t>(data) > base + done) {
                hole_end = static_cast<uint64_t>(data) - base;
            } else {
                const off_t hole = ::lseek(src_fd, static_cast<off_t>(base + done), SEEK_HOLE);
                data_end = hole < 0 ? size : std::min(size, static_cast<uint64_t>(hole) - base);
                if (data_end <= done) probe_holes = false;  // inconsistent answers: stop asking
            }
        }
        uint64_t n = std::min<uint64_t>(kBufferSize - used_, size - done);
        uint8_t* at = buffer_.get() + used_;
        if (done < hole_end) {
            n = std::min(n, hole_end - done);
            std::memset(at, 0, n);
        } else {
            if (probe_holes) n = std::min(n, data_end - done);
            io::pread_exact(src_fd, base + done, at, n, src_name);
        }
        crc = io::crc32(crc, at, n);
        used_ += n;
        done += n;
    }
    return crc;
}

// copy_from_fd's loop for bytes read earlier: the buffer is flushed at the same offsets, so the
// archive (and which of its zero blocks become holes) does not depend on who read the file.
void ZipWriter::copy_from_memory(const uint8_t* data, uint64_t size, const std::string& src_name) {
    uint64_t done = 0;
    while (done < size) {
        if (used_ == kBufferSize) {
            io::throw_if_cancelled(("copying " + src_name).c_str());
            flush();
        }
        const uint64_t n = std::min<uint64_t>(kBufferSize - used_, size - done);
        std::memcpy(buffer_.get() + used_, data + done, n);
        used_ += n;
        done += n;
    }
}

void ZipWriter::append(const void* data, size_t n) {
    if (n == 0) return;  // empty samples pass data == nullptr, which memcpy must not see
    if (n <= kBufferSize - used_) {
        std::memcpy(buffer_.get() + used_, data, n);
        used_ += n;
        return;
    }
    flush();
    if (n >= kBufferSize) {
        write_out(flushed_, static_cast<const uint8_t*>(data), n);
        flushed_ += n;
    } else {
        std::memcpy(buffer_.get(), data, n);
        used_ = n;
    }
}

uint8_t* ZipWriter::reserve(size_t n) {
    if (kBufferSize - used_ < n) flush();
    return buffer_.get() + used_;
}

void ZipWriter::flush() {
    write_out(flushed_, buffer_.get(), used_);
    flushed_ += used_;
    used_ = 0;
}

void ZipWriter::write_out(uint64_t offset, const uint8_t* data, size_t n) {
    if (offset + n <= sparse_from_) {
        io::pwrite_all(fd_, offset, data, n, name_);
        return;
    }
    size_t pending = 0;  // start of the bytes not yet written
    size_t i = 0;
    while (i < n) {
        const uint64_t at = offset + i;
        const size_t end =
            static_cast<size_t>(std::min<uint64_t>(n, (at / kHoleBlock + 1) * kHoleBlock - offset));
        if (at >= sparse_from_ && end - i == kHoleBlock && all_zero(data + i, end - i)) {
            if (pending < i) write_new(offset + pending, data + pending, i - pending);
            pending = end;
        }
        i = end;
    }
    if (pending < n) write_new(offset + pending, data + pending, n - pending);
}

// Bytes past the destination's initial size get their blocks allocated first, one call per range:
// ext4 then skips its per-page delayed-allocation work, about a third of the cost of writing into
// the page cache. Only a hint: without fallocate support or free space, the write itself reports.
void ZipWriter::write_new(uint64_t offset, const uint8_t* data, size_t n) {
    preallocate(offset, n);
    io::pwrite_all(fd_, offset, data, n, name_);
}

void ZipWriter::preallocate(uint64_t offset, uint64_t n) {
    if (preallocate_ && n > 0 &&
        ::fallocate(fd_, FALLOC_FL_KEEP_SIZE, static_cast<off_t>(offset), static_cast<off_t>(n)) !=
            0 &&
        errno == EOPNOTSUPP) {
        preallocate_ = false;
    }
}

void ZipWriter::patch(uint64_t offset, const void* data, size_t n) {
    const auto* p = static_cast<const uint8_t*>(data);
    if (offset < flushed_) {
        const size_t k = static_cast<size_t>(std::min<uint64_t>(n, flushed_ - offset));
        io::pwrite_all(fd_, offset, p, k, name_);
        offset += k;
        p += k;
        n -= k;
    }
    if (n > 0) std::memcpy(buffer_.get() + (offset - flushed_), p, n);
}

void ZipWriter::check_usable() const {
    if (finished_) throw std::logic_error("ZipWriter for '" + name_ + "' is already finished");
    if (failed_) {
        throw std::logic_error("ZipWriter for '" + name_ +
                               "' is unusable after an earlier error; discard the archive");
    }
}

void ZipWriter::set_crc(size_t index, uint32_t crc) {
    Record& r = records_[index];
    r.crc = crc;
    uint8_t bytes[4];
    io::store_le32(bytes, crc);
    patch(r.local_header_offset + 14, bytes, 4);
}

std::string_view ZipWriter::record_name(const Record& r) const {
    return std::string_view(names_).substr(r.name_offset, r.name_length);
}

}  // namespace taco::format
