#include "tacozip/tacozip.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <unordered_set>

#include "format/overwrite_guard.hpp"
#include "format/zip_constants.hpp"
#include "format/zip_reader.hpp"
#include "format/zip_writer.hpp"
#include "io/crc32.hpp"
#include "io/file.hpp"
#include "io/little_endian.hpp"
#include "io/staged_output.hpp"
#include "taco/errors.hpp"

namespace fs = std::filesystem;

namespace taco::tacozip {
namespace {

using format::zip::kCentralHeaderFixed;
using format::zip::kCentralHeaderSignature;
using format::zip::kLocalHeaderFixed;
using format::zip::kLocalHeaderSignature;
using format::zip::kZip64ExtraId;

constexpr size_t kCentralRecordCrcOffset = 16;
constexpr size_t kLocalHeaderCrcOffset = 14;

// Where an entry's bytes are: what a header slot must name exactly.
struct DataRange {
    std::string name;
    uint64_t offset;
    uint64_t length;
};

std::string pair_text(uint64_t offset, uint64_t length) {
    return "(" + std::to_string(offset) + ", " + std::to_string(length) + ")";
}

// Every slot must be one entry's data range: a reader takes a slot as a whole file (a level's
// Parquet, COLLECTION.json) and would otherwise read the bytes of a local header, of two entries,
// or past the end. Returns the first slot that is not, or nullopt.
std::optional<size_t> unmatched_slot(const format::TacoHeader& header,
                                     const std::vector<DataRange>& ranges) {
    for (size_t i = 0; i < header.slots.size(); ++i) {
        const auto offset = header.slots[i].first, length = header.slots[i].second;
        const bool found = std::any_of(ranges.begin(), ranges.end(), [&](const DataRange& r) {
            return r.offset == offset && r.length == length;
        });
        if (!found) return i;
    }
    return std::nullopt;
}

// The refusal of slot `i`. The usual mistake is an offset taken from the local header instead of
// the data, so it shows the entry the caller most likely meant: one of the same length, else the
// nearest.
[[noreturn]] void refuse_slot(const format::TacoHeader& header, size_t i,
                              const std::vector<DataRange>& ranges, const std::string& zip_name) {
    const auto offset = header.slots[i].first, length = header.slots[i].second;
    std::string message = "TACO_HEADER slot " + std::to_string(i) + " " +
                          pair_text(offset, length) + " is not the data of any entry of " +
                          zip_name +
                          ": a slot is (offset of an entry's first data byte, its length)";
    auto distance = [&](const DataRange& r) {
        return std::pair{r.length != length,
                         r.offset > offset ? r.offset - offset : offset - r.offset};
    };
    const auto closest = std::min_element(
        ranges.begin(), ranges.end(),
        [&](const DataRange& a, const DataRange& b) { return distance(a) < distance(b); });
    if (closest != ranges.end()) {
        message += "; the closest match, '" + closest->name + "', has its data at " +
                   pair_text(closest->offset, closest->length);
    }
    throw std::invalid_argument(message);
}

// Names a reader can trust to stay inside an extraction directory and to find one entry each.
void check_names(const std::vector<SourceEntry>& entries) {
    std::unordered_set<std::string_view> seen{format::kTacoHeaderEntryName};
    for (const SourceEntry& e : entries) {
        const std::string& n = e.name;
        auto refuse = [&](const std::string& why) {
            throw std::invalid_argument("archive name '" + n + "' (for " + e.source.string() +
                                        ") " + why);
        };
        if (n.empty()) refuse("is empty");
        if (n.front() == '/') refuse("is absolute, expected a path relative to the archive");
        if (n.back() == '/') refuse("ends in '/', which names a directory, not a file");
        for (const auto& part : fs::path(n)) {
            if (part == "..") refuse("has a '..' part, which leads out of the archive");
        }
        if (!seen.insert(n).second) {
            refuse(n == format::kTacoHeaderEntryName
                       ? "is reserved: TACO_HEADER is always the archive's first entry"
                       : "is given twice: every entry needs its own name");
        }
    }
}

// The first kTacoHeaderSize bytes of `file` (fewer when it is shorter: parse reports that).
std::vector<uint8_t> read_head(const io::File& file) {
    std::vector<uint8_t> head(std::min<uint64_t>(file.size(), format::kTacoHeaderSize));
    file.read_at(0, head.data(), head.size());
    return head;
}

// The stored size a local header declares: its 32-bit field, or its ZIP64 extra field's
// (original size, then compressed size) when that is 0xFFFFFFFF. UINT64_MAX when it has none.
uint64_t local_stored_size(const uint8_t* lfh, size_t name_len, size_t extra_len) {
    const uint32_t size = io::load_le32(lfh + 18);
    if (size != UINT32_MAX) return size;
    const uint8_t* extra = lfh + kLocalHeaderFixed + name_len;
    for (size_t at = 0; at + 4 <= extra_len;) {
        const uint16_t id = io::load_le16(extra + at), field = io::load_le16(extra + at + 2);
        if (id == kZip64ExtraId && field >= 16 && at + 4 + field <= extra_len) {
            return io::load_le64(extra + at + 4 + 8);
        }
        at += 4 + field;
    }
    return UINT64_MAX;
}

// Whether a local file header ends exactly at `offset`, stores its entry uncompressed, and
// declares `length` bytes that end before the central directory: then the slot is that entry's
// data. Reads a 4 KiB window before the slot, and the longest a header can be (30 + 2 x 65,535
// bytes) only when the first finds none.
bool local_header_ends_at(const io::File& file, uint64_t offset, uint64_t length,
                          uint64_t cd_offset) {
    // No slot names TACO_HEADER's own payload, and none reaches into the central directory.
    if (offset < format::kTacoHeaderSize || offset > cd_offset || cd_offset - offset < length) {
        return false;
    }
    for (const uint64_t window : {uint64_t{4096}, uint64_t{kLocalHeaderFixed + 2 * 65535}}) {
        const uint64_t span = std::min(window, offset);
        std::vector<uint8_t> before(span);
        file.read_at(offset - span, before.data(), before.size());
        for (size_t p = span >= kLocalHeaderFixed ? span - kLocalHeaderFixed + 1 : 0; p-- > 0;) {
            const uint8_t* lfh = &before[p];
            if (io::load_le32(lfh) != kLocalHeaderSignature) continue;
            const size_t name_len = io::load_le16(lfh + 26), extra_len = io::load_le16(lfh + 28);
            if (p + kLocalHeaderFixed + name_len + extra_len != span) continue;
            return io::load_le16(lfh + 8) == 0 &&
                   local_stored_size(lfh, name_len, extra_len) == length;
        }
        if (span == offset) break;
    }
    return false;
}

}  // namespace

format::TacoHeader header_from_pairs(const std::vector<std::pair<uint64_t, uint64_t>>& pairs) {
    if (pairs.size() > format::kTacoHeaderMaxSlots) {
        throw std::invalid_argument("Too many entries: " + std::to_string(pairs.size()) +
                                    " > 7 (TACO_HEADER holds at most 7 (offset, length) pairs)");
    }
    format::TacoHeader header{pairs};
    while (!header.slots.empty() && header.slots.back() == std::pair<uint64_t, uint64_t>{0, 0}) {
        header.slots.pop_back();
    }
    for (size_t i = 0; i < header.slots.size(); ++i) {
        if (header.slots[i] == std::pair<uint64_t, uint64_t>{0, 0}) {
            throw std::invalid_argument(
                "entry " + std::to_string(i) + " is (0, 0) but a later one is used: the pairs " +
                "must be packed from the first, since readers take the first 'count' slots");
        }
    }
    return header;
}

void create(const fs::path& zip_path, const std::vector<SourceEntry>& entries,
            const format::TacoHeader& header) {
    if (entries.empty()) {
        throw std::invalid_argument("no files to store in " + zip_path.string() +
                                    ": tacozip.create needs at least one");
    }
    check_names(entries);
    const std::string payload = format::encode_taco_header_payload(header);
    std::vector<fs::path> sources;
    sources.reserve(entries.size());
    for (const SourceEntry& e : entries) sources.push_back(e.source);
    format::check_replaceable_zip(zip_path, sources, "tacozip.create");

    io::StagedOutput staged(zip_path, /*overwrite=*/true);  // removes its staging file on error
    io::File out = io::File::create_exclusive(staged.staging());
    // tacozip rewrites the file in place, so a replaced archive keeps its permissions (a private
    // 0600 archive does not become world-readable under umask 022).
    struct stat old_st;
    if (::stat(zip_path.c_str(), &old_st) == 0 && S_ISREG(old_st.st_mode) &&
        ::fchmod(out.fd(), old_st.st_mode & 07777) != 0) {
        throw IoError("cannot give " + staged.staging().string() + " the permissions of " +
                      zip_path.string() + ": " + std::strerror(errno));
    }
    format::ZipWriter writer(out.fd(), zip_path.string());
    writer.add_bytes(format::kTacoHeaderEntryName, payload, format::EntryAttrs::header_entry());
    std::vector<DataRange> ranges;  // kept only when there are slots to check
    for (const SourceEntry& e : entries) {
        const size_t index = writer.add_file(e.name, e.source);
        if (header.slots.empty()) continue;
        const format::ZipEntryInfo info = writer.entry(index);
        ranges.push_back({info.name, info.data_offset, info.size});
    }
    if (auto bad = unmatched_slot(header, ranges))
        refuse_slot(header, *bad, ranges, zip_path.string());
    writer.finish();
    out.close();
    staged.commit();
}

format::TacoHeader read_header(const fs::path& zip_path) {
    const io::File file = io::File::open_read(zip_path);
    const std::vector<uint8_t> head = read_head(file);
    // tacozip writes [(0, 0), (a, b)] with count 1 and reads it back as [(0, 0)]: the same here.
    return format::parse_taco_header(head.data(), head.size(), zip_path.string(),
                                     format::SlotsPastCount::Ignored);
}

void update_header(const fs::path& zip_path, const format::TacoHeader& header) {
    const std::string name = zip_path.string();
    const std::string payload = format::encode_taco_header_payload(header);
    io::File file = io::File::open_read_write(zip_path);

    // The framing only: the slots now stored are the ones being replaced, so they may be anything.
    std::vector<uint8_t> head = read_head(file);
    if (head.size() == format::kTacoHeaderSize) {
        std::fill(head.begin() + format::kTacoHeaderPayloadOffset, head.end(), 0);
    }
    format::parse_taco_header(head.data(), head.size(), name);

    // TACO_HEADER's central directory record, whose CRC changes with the payload: the first
    // record, naming TACO_HEADER and pointing at byte 0.
    const format::CentralDirectoryLocation cd = format::locate_central_directory(file, name);
    std::array<uint8_t, kCentralHeaderFixed + format::kTacoHeaderEntryName.size()> record{};
    if (cd.count == 0 || cd.size < record.size()) {
        throw FormatError(name + ": the central directory has no record for TACO_HEADER");
    }
    file.read_at(cd.offset, record.data(), record.size());
    const std::string_view record_name(reinterpret_cast<const char*>(&record[kCentralHeaderFixed]),
                                       format::kTacoHeaderEntryName.size());
    if (io::load_le32(record.data()) != kCentralHeaderSignature ||
        io::load_le16(record.data() + 28) != format::kTacoHeaderEntryName.size() ||
        record_name != format::kTacoHeaderEntryName || io::load_le32(record.data() + 42) != 0) {
        throw FormatError(name + ": the first central directory record (at byte " +
                          std::to_string(cd.offset) +
                          ") is not TACO_HEADER's at offset 0, so its CRC cannot be kept in step "
                          "with the header");
    }

    // Each slot is checked against the local header that ends where it starts: one small read,
    // however many entries the archive has. Only when that does not settle it (a wrong slot, or
    // sizes kept in data descriptors) is the whole directory read, which is authoritative.
    const bool settled = std::all_of(header.slots.begin(), header.slots.end(), [&](auto slot) {
        return local_header_ends_at(file, slot.first, slot.second, cd.offset);
    });
    if (!settled) {
        const format::ZipDirectory directory = format::read_zip_directory(file, name);
        std::vector<DataRange> ranges;
        for (size_t i = 1; i < directory.size(); ++i) {
            ranges.push_back({std::string(directory[i].name), directory[i].data_offset,
                              directory[i].compressed_size});
        }
        if (auto bad = unmatched_slot(header, ranges)) refuse_slot(header, *bad, ranges, name);
    }

    uint8_t crc[4];
    io::store_le32(crc, io::crc32(0, payload.data(), payload.size()));
    file.pwrite_all(format::kTacoHeaderPayloadOffset, payload.data(), payload.size());
    file.pwrite_all(kLocalHeaderCrcOffset, crc, sizeof crc);
    file.pwrite_all(cd.offset + kCentralRecordCrcOffset, crc, sizeof crc);
    file.close();
}

}  // namespace taco::tacozip
