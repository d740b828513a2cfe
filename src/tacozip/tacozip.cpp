#include "tacozip/tacozip.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <stdexcept>
#include <unordered_set>

#include "format/overwrite_guard.hpp"
#include "format/zip_reader.hpp"
#include "format/zip_writer.hpp"
#include "io/crc32.hpp"
#include "io/file.hpp"
#include "io/staged_output.hpp"
#include "taco/errors.hpp"

namespace fs = std::filesystem;

namespace taco::tacozip {
namespace {

constexpr uint32_t kCentralRecordSignature = 0x02014b50;
constexpr size_t kCentralRecordFixedSize = 46;
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
        const auto [offset, length] = header.slots[i];
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
    const auto [offset, length] = header.slots[i];
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

void store_le32(uint8_t* p, uint32_t v) {
    for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}
uint32_t load_le32(const uint8_t* p) {
    return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 |
           static_cast<uint32_t>(p[2]) << 16 | static_cast<uint32_t>(p[3]) << 24;
}
uint16_t load_le16(const uint8_t* p) {
    return static_cast<uint16_t>(p[0] | (p[1] << 8));
}

// The first kTacoHeaderSize bytes of `file` (fewer when it is shorter: parse reports that).
std::vector<uint8_t> read_head(const io::File& file) {
    std::vector<uint8_t> head(std::min<uint64_t>(file.size(), format::kTacoHeaderSize));
    file.read_at(0, head.data(), head.size());
    return head;
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
    return format::parse_taco_header(head.data(), head.size(), zip_path.string());
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

    const format::ZipDirectory directory =
        format::read_zip_directory(file, name, {.resolve_data_offsets = false});
    if (directory.empty() || directory[0].name != format::kTacoHeaderEntryName ||
        directory[0].local_header_offset != 0) {
        throw FormatError(name +
                          ": the first central directory record is not TACO_HEADER at "
                          "offset 0, so its CRC cannot be kept in step with the header");
    }
    std::array<uint8_t, kCentralRecordFixedSize + format::kTacoHeaderEntryName.size()> record{};
    const uint64_t record_at = directory.central_directory_offset();
    file.read_at(record_at, record.data(), record.size());
    if (load_le32(record.data()) != kCentralRecordSignature ||
        load_le16(record.data() + 28) != format::kTacoHeaderEntryName.size()) {
        throw FormatError(name + ": no central directory record for TACO_HEADER at byte " +
                          std::to_string(record_at));
    }

    // A slot can only name the entry whose local header is the last one before the slot's
    // offset, so each slot costs one local header read, however many entries the archive has.
    std::vector<DataRange> candidates;
    for (const auto& [offset, length] : header.slots) {
        size_t i = 0;  // TACO_HEADER itself: no slot may name it
        for (size_t j = 1; j < directory.size(); ++j) {
            const uint64_t at = directory[j].local_header_offset;
            if (at < offset && at > directory[i].local_header_offset) i = j;
        }
        if (i == 0 || directory[i].compressed_size != length) continue;
        candidates.push_back({std::string(directory[i].name),
                              format::read_entry_data_offset(file, name, directory, i), length});
    }
    if (auto bad = unmatched_slot(header, candidates)) {
        const format::ZipDirectory resolved = format::read_zip_directory(file, name);
        std::vector<DataRange> all;
        for (size_t i = 1; i < resolved.size(); ++i) {
            all.push_back({std::string(resolved[i].name), resolved[i].data_offset,
                           resolved[i].compressed_size});
        }
        refuse_slot(header, *bad, all, name);
    }

    uint8_t crc[4];
    store_le32(crc, io::crc32(0, payload.data(), payload.size()));
    file.pwrite_all(format::kTacoHeaderPayloadOffset, payload.data(), payload.size());
    file.pwrite_all(kLocalHeaderCrcOffset, crc, sizeof crc);
    file.pwrite_all(record_at + kCentralRecordCrcOffset, crc, sizeof crc);
    file.close();
}

}  // namespace taco::tacozip
