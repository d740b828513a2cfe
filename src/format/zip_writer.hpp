// A streaming, STORE-only ZIP writer producing the exact framing of the reference writer (libzip
// via tacozip, FORMAT.md §2.2, §2.5, §2.6): no data descriptors, no padding, no extra fields except
// ZIP64 ones, and ZIP64 records exactly when a size, offset or entry count needs them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <ctime>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "io/source_file.hpp"

namespace taco::io {
class CrcBehind;
}

namespace taco::format {

/// MS-DOS time and date fields as stored in ZIP headers (2-second resolution, local time).
struct DosDateTime {
    uint16_t time = 0;
    uint16_t date = 0;

    bool operator==(const DosDateTime&) const = default;
};

/// Converts to local-time DOS fields; times before 1980 or after 2107 are clamped to the range
/// ends.
DosDateTime to_dos_date_time(std::time_t t);

/// `S_IFREG | 0644` in the high half: what an entry gets when it has no source file.
inline constexpr uint32_t kExternalAttrRegularFile = 0100644u << 16;  // 0x81A40000
/// Mode 0644 without file-type bits: what tacozip writes for the TACO_HEADER entry.
inline constexpr uint32_t kExternalAttrHeaderEntry = 0644u << 16;  // 0x01A40000

/// Per-entry overrides; unset fields take the defaults described at each add_* method.
struct EntryAttrs {
    std::optional<DosDateTime> time;
    std::optional<uint32_t> external_attr;

    /// The attributes of the TACO_HEADER entry (time = archive creation time).
    static EntryAttrs header_entry() {
        EntryAttrs attrs;
        attrs.external_attr = kExternalAttrHeaderEntry;
        return attrs;
    }
};

/// What the writer recorded for one entry.
struct ZipEntryInfo {
    std::string name;
    uint64_t local_header_offset = 0;
    uint64_t data_offset = 0;
    uint64_t size = 0;
    uint32_t crc = 0;
    uint32_t external_attr = 0;
    uint16_t dos_time = 0;
    uint16_t dos_date = 0;
};

/// Bytes an entry's local header takes before its data: 30 + name + 20 when the size needs ZIP64.
/// With this, every data offset of an archive can be predicted before it is written (§2.4).
uint64_t zip_local_header_size(std::string_view name, uint64_t size);

/// Writes a ZIP archive to `fd` starting at byte 0, using positional writes only (the descriptor's
/// own file position is neither used nor moved). Bytes are staged in a 4 MiB buffer so that small
/// entries cost no system calls; large sources stream through the same buffer and are never held
/// whole in memory. Per entry the writer keeps ~40 bytes plus the name, so a million entries are
/// cheap.
///
/// When `fd` is a regular file, zero-filled 64 KiB blocks past its initial size are skipped instead
/// of written, which leaves holes that read back as zeros: sparse inputs give sparse archives.
///
/// Errors from the destination or a source are taco::IoError; after any error the writer refuses
/// further use (the archive is incomplete and should be discarded). Misuse (bad index, wrong size,
/// use after finish) is std::logic_error / std::invalid_argument. Entry names must be valid UTF-8
/// of at most 65,535 bytes (taco::FormatError otherwise); duplicates are not detected here.
class ZipWriter {
  public:
    /// Does not take ownership of `fd`. `name_for_errors` is what error messages call the archive.
    explicit ZipWriter(int fd, std::string name_for_errors = "ZIP archive");
    ~ZipWriter();
    ZipWriter(const ZipWriter&) = delete;
    ZipWriter& operator=(const ZipWriter&) = delete;

    /// Adds an entry holding `data`. Time defaults to the writer's creation time, external
    /// attributes to kExternalAttrRegularFile. Returns the entry index.
    size_t add_bytes(std::string_view name, std::string_view data, const EntryAttrs& attrs = {});

    /// Copies the regular file `src` into a new entry. Time and external attributes default to
    /// the file's mtime and `st_mode << 16`. A file of kKernelCopyMin bytes or more is copied by
    /// the kernel (copy_file_range) and its CRC read back from the source (kernel_copy); a
    /// smaller one, or a sparse one (its holes found with SEEK_DATA/SEEK_HOLE and not read), is
    /// streamed through a buffer and summed on the way. A big file modified while it was copied
    /// is an IoError, never an entry whose CRC disagrees with its bytes.
    size_t add_file(std::string_view name, const std::filesystem::path& src,
                    const EntryAttrs& attrs = {});

    /// add_file for a source the caller opened (io::ReadAhead, io::open_source): its bytes come
    /// from `src.contents` when loaded, else from `src.fd` (not closed here). `src.error` is thrown
    /// once the name is checked, like the errors of opening above; `src_name` names it in the
    /// others.
    size_t add_file(std::string_view name, const io::SourceFile& src, const std::string& src_name,
                    const EntryAttrs& attrs = {});

    /// Copies `size` bytes of `src_fd` starting at its offset 0 (whatever its file position), e.g.
    /// a memfd holding a Parquet file. Defaults as add_bytes.
    size_t add_fd(std::string_view name, int src_fd, uint64_t size, const EntryAttrs& attrs = {});

    /// Copies bytes [offset, offset + size) of `src_fd` (e.g. a sample inside another ZIP) into
    /// a new entry, with positional reads only. A source shorter than that is an IoError naming
    /// `src_name`. Defaults as add_bytes.
    size_t add_fd_range(std::string_view name, int src_fd, uint64_t offset, uint64_t size,
                        const std::string& src_name, const EntryAttrs& attrs = {});

    /// add_fd_range for bytes whose CRC-32 is already known (the source ZIP's central directory
    /// holds it): the bytes are not read into user space but copied by the kernel
    /// (copy_file_range, a reflink or server-side copy where the filesystem offers one), with a
    /// buffered copy as the fallback. The caller vouches for `crc`.
    size_t add_fd_range_with_crc(std::string_view name, int src_fd, uint64_t offset, uint64_t size,
                                 uint32_t crc, const std::string& src_name,
                                 const EntryAttrs& attrs = {});

    /// Below this size the kernel copies above fall back to add_fd_range: a buffered copy is
    /// cheaper than the system calls, and it sums the bytes on the way.
    static constexpr uint64_t kKernelCopyMin = uint64_t{256} << 10;

    /// add_fd_range_with_crc for bytes whose CRC is not known: copied by the kernel all the
    /// same; the CRC is then summed from the archive itself (the bytes stored, whatever happens
    /// to the source meanwhile), on a helper thread behind the copies (io::CrcBehind), and
    /// patched into the local header when collected: by the next kernel copy, crc_of() or
    /// finish() at the latest.
    size_t add_fd_range_kernel(std::string_view name, int src_fd, uint64_t offset, uint64_t size,
                               const std::string& src_name, const EntryAttrs& attrs = {});

    /// Replaces the data of entry `index` with `data` of the same size, and its CRC in the local
    /// header and (when finish() runs) in the central directory. Used to patch TACO_HEADER once the
    /// real offsets are known. Only valid before finish().
    void rewrite_entry_data(size_t index, std::string_view data);

    /// Offset where the next local header (or the central directory) will start.
    uint64_t position() const { return flushed_ + used_; }
    size_t entry_count() const { return records_.size(); }
    /// A copy of what was recorded for entry `i` (records are stored packed, not as ZipEntryInfo).
    /// Its `crc` is 0 while a kernel-copied entry's CRC is still being summed: crc_of(i) waits.
    ZipEntryInfo entry(size_t i) const;
    /// The CRC of entry `i`, waiting for it when it is still being summed.
    uint32_t crc_of(size_t i);

    /// Writes the central directory, the ZIP64 end records when needed and the end record, then
    /// flushes everything to `fd` (no fsync). The writer accepts nothing afterwards.
    void finish();
    bool finished() const { return finished_; }

  private:
    // One central-directory-to-be record, kept small: the name lives in `names_`.
    struct Record {
        uint64_t local_header_offset;
        uint64_t size;
        uint64_t name_offset;
        uint32_t crc;
        uint32_t external_attr;
        uint16_t name_length;
        uint16_t flags;
        uint16_t dos_time;
        uint16_t dos_date;
    };

    // Writes the local header; returns the new entry's index. CRC may be patched later.
    size_t begin_entry(std::string_view name, uint16_t flags, uint64_t size, uint32_t crc,
                       DosDateTime time, uint32_t external_attr);
    // Copies [base, base + size) of src_fd (pread only, so its file position is untouched).
    uint32_t copy_from_fd(int src_fd, uint64_t size, const std::string& src_name, bool probe_holes,
                          uint64_t base = 0);
    void copy_from_memory(const uint8_t* data, uint64_t size, const std::string& src_name);
    // The two public kernel copies: `known` CRC, or summed from the archive afterwards.
    size_t kernel_copy(std::string_view name, int src_fd, uint64_t offset, uint64_t size,
                       std::optional<uint32_t> known, const std::string& src_name,
                       const EntryAttrs& attrs);
    void append(const void* data, size_t n);
    uint8_t* reserve(size_t n);
    void flush();
    void write_out(uint64_t offset, const uint8_t* data, size_t n);
    void write_new(uint64_t offset, const uint8_t* data, size_t n);
    // fallocate(KEEP_SIZE) of [offset, offset + n) where the file supports it; only a hint.
    void preallocate(uint64_t offset, uint64_t n);
    void patch(uint64_t offset, const void* data, size_t n);
    // Records the CRC and patches it into the entry's local header.
    void set_crc(size_t index, uint32_t crc);
    // The CRC of [offset, offset + size) of the archive for entry `index`: summed behind the
    // copies when a second core is there, else now.
    void crc_from_archive(size_t index, uint64_t offset, uint64_t size);
    // Patches in the CRCs summed so far; every one still being summed when `all`.
    void collect_crcs(bool all);
    void check_usable() const;
    std::string_view record_name(const Record& r) const;

    int fd_;
    std::string name_;
    std::unique_ptr<uint8_t[]> buffer_;
    size_t used_ = 0;       // bytes staged in buffer_
    uint64_t flushed_ = 0;  // file offset of buffer_[0]
    // Destination offsets at or past this were never written, so zero blocks there may be skipped;
    // UINT64_MAX when the destination is not a regular file.
    uint64_t sparse_from_;
    bool preallocate_;  // fallocate() ranges before writing them (regular files that support it)
    DosDateTime created_;
    std::vector<Record> records_;
    std::string names_;  // all entry names back to back
    bool finished_ = false;
    bool failed_ = false;
    std::unique_ptr<io::CrcBehind> behind_;  // started by the first kernel copy without a CRC
};

}  // namespace taco::format
