// Reads the central directory of a local ZIP file (ZIP64 included) into a compact, searchable
// list of entries with their real data offsets.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace taco::io {
class File;
}

namespace taco::format {

/// `ZipEntry::data_offset` when the local header was not read
/// (ZipReadOptions::resolve_data_offsets).
inline constexpr uint64_t kUnresolvedDataOffset = UINT64_MAX;

/// One central directory record, ZIP64 fields already applied.
struct ZipEntry {
    std::string_view name;  // points into the owning ZipDirectory (shared by its copies)
    uint16_t flags = 0;
    uint16_t method = 0;
    uint16_t dos_time = 0;
    uint16_t dos_date = 0;
    uint32_t crc = 0;
    uint32_t external_attr = 0;
    uint64_t compressed_size = 0;
    uint64_t uncompressed_size = 0;
    uint64_t local_header_offset = 0;
    /// First data byte: local header offset + 30 + the local header's own name and extra lengths.
    uint64_t data_offset = kUnresolvedDataOffset;
};

struct ZipReadOptions {
    /// Read every local header to fill `data_offset`. Headers that lie close together are fetched
    /// with one read per 1 MiB window, so a million small entries cost a few dozen reads; entries
    /// spread over gigabytes cost one small read each. Turn off when only the directory is needed
    /// and resolve single entries with read_entry_data_offset().
    bool resolve_data_offsets = true;
};

class ZipDirectory;

/// Finds the end record (scanning back over at most 65,535 + 22 bytes of comment), follows the
/// ZIP64 locator when present, reads the whole central directory with one read and checks that
/// every record, ZIP64 field and local header is consistent and inside the file. Duplicate entry
/// names are rejected (they make name lookups ambiguous). Throws taco::FormatError naming `path`,
/// the structure and its offset; read failures are taco::IoError.
ZipDirectory read_zip_directory(const io::File& file, const std::string& path,
                                const ZipReadOptions& options = {});

/// Where the central directory is: offset, size in bytes, number of records.
struct CentralDirectoryLocation {
    uint64_t offset = 0;
    uint64_t size = 0;
    uint64_t count = 0;
};

/// The end records alone (ZIP64 included), with read_zip_directory's checks of them: for a
/// caller that reads one record, not the whole directory.
CentralDirectoryLocation locate_central_directory(const io::File& file, const std::string& path);

/// Reads the local header of entry `index` and returns its data offset (same checks as above).
uint64_t read_entry_data_offset(const io::File& file, const std::string& path,
                                const ZipDirectory& directory, size_t index);

/// The entries of a ZIP in central directory order plus a name index. Copies are cheap to make
/// and share the name storage.
class ZipDirectory {
  public:
    ZipDirectory() = default;

    const std::vector<ZipEntry>& entries() const { return entries_; }
    size_t size() const { return entries_.size(); }
    bool empty() const { return entries_.empty(); }
    const ZipEntry& operator[](size_t i) const { return entries_[i]; }

    std::optional<size_t> index_of(std::string_view name) const;
    /// nullptr when there is no entry called `name`.
    const ZipEntry* find(std::string_view name) const;

    uint64_t file_size() const { return file_size_; }
    uint64_t central_directory_offset() const { return cd_offset_; }
    uint64_t central_directory_size() const { return cd_size_; }
    /// Whether the archive has ZIP64 end records.
    bool is_zip64() const { return zip64_; }

  private:
    friend ZipDirectory read_zip_directory(const io::File&, const std::string&,
                                           const ZipReadOptions&);

    // Fills index_ from entries_; throws taco::FormatError naming `path` on duplicate names.
    void build_index(const std::string& path);

    std::shared_ptr<const std::string> names_;
    std::vector<ZipEntry> entries_;
    // Open-addressing hash table (linear probing, at most half full) of hash tag + entry index;
    // it stores no pointers, so copying the directory keeps it valid.
    std::vector<uint64_t> index_;
    uint64_t file_size_ = 0;
    uint64_t cd_offset_ = 0;
    uint64_t cd_size_ = 0;
    bool zip64_ = false;
};

}  // namespace taco::format
