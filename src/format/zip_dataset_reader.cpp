// Opening a TACO ZIP through its TACO_HEADER only (FORMAT.md §2.3): one 157-byte read finds every
// level table and COLLECTION.json, so a million-sample archive opens without touching its
// central directory.
#include <algorithm>
#include <cstdio>

#include "format/collection_parse.hpp"
#include "format/dataset_open.hpp"
#include "format/taco_header.hpp"
#include "io/byte_source.hpp"
#include "io/crc32.hpp"
#include "taco/errors.hpp"

namespace taco::format {
namespace {

// A Parquet file starts and ends with "PAR1"; checking both catches ranges that point anywhere
// else long before DuckDB would give a less specific error.
void check_parquet_magic(const io::ByteSource& src, const LevelSource& level) {
    const std::string where =
        level.name + " (" + io::byte_range_text(level.offset, level.size) + ")";
    if (level.size < 12) {
        throw FormatError(src.name() + ": " + where + " is " + std::to_string(level.size) +
                          " bytes, too small for a Parquet file");
    }
    char head[4], tail[4];
    src.read_at(level.offset, head, 4, level.name);
    src.read_at(level.offset + level.size - 4, tail, 4, level.name);
    if (std::string_view(head, 4) != "PAR1" || std::string_view(tail, 4) != "PAR1") {
        throw FormatError(src.name() + ": " + where +
                          " is not a Parquet file (no PAR1 magic); the "
                          "TACO_HEADER points at the wrong bytes or the file is damaged");
    }
}

// The local header's CRC-32 covers the 116-byte payload: a header edited or damaged after writing
// (a slot pointing at another level) is caught here rather than loading the wrong rows.
void check_taco_header_crc(const uint8_t* head, const std::string& name) {
    const uint32_t stored = static_cast<uint32_t>(head[14]) | static_cast<uint32_t>(head[15]) << 8 |
                            static_cast<uint32_t>(head[16]) << 16 |
                            static_cast<uint32_t>(head[17]) << 24;
    const uint32_t actual = io::crc32(0, head + kTacoHeaderPayloadOffset, kTacoHeaderPayloadSize);
    if (stored != actual) {
        char text[64];
        std::snprintf(text, sizeof text, "0x%08X, but its payload has CRC-32 0x%08X", stored,
                      actual);
        throw FormatError(name + ": invalid TACO_HEADER: the stored CRC-32 (byte 14) is " + text +
                          "; the header was damaged or edited after writing");
    }
}

}  // namespace

OpenedDataset open_zip_dataset(const std::filesystem::path& path) {
    std::vector<std::shared_ptr<const paths::PathAnchor>> anchors;
    std::string root = sql_root(path, anchors);
    OpenedDataset out = open_zip_source(path, io::open_local_source(path), std::move(root));
    out.anchors = std::move(anchors);
    return out;
}

OpenedDataset open_zip_source(const std::filesystem::path& path,
                              std::shared_ptr<io::ByteSource> archive, std::string vsi_root) {
    OpenedDataset out;
    out.path = path;
    out.format = ContainerFormat::Zip;
    out.archive = std::move(archive);
    const io::ByteSource& src = *out.archive;
    out.vsi_root = std::move(vsi_root);

    uint8_t head[kTacoHeaderSize];
    const size_t n = static_cast<size_t>(std::min<uint64_t>(src.size(), kTacoHeaderSize));
    src.prefetch(0, n, "TACO_HEADER");
    src.read_at(0, head, n, "TACO_HEADER");
    const TacoHeader header = parse_taco_header(head, n, src.name());
    if (header.slots.size() < 2) {
        throw FormatError(
            src.name() + ": TACO_HEADER lists " + std::to_string(header.slots.size()) +
            " entries; a TACO ZIP needs at least METADATA/level0.parquet and "
            "COLLECTION.json (a count of 0 means the writer never finished the file)");
    }
    const size_t nlevels = header.slots.size() - 1;
    for (size_t i = 0; i < header.slots.size(); ++i) {
        const auto [offset, size] = header.slots[i];
        const std::string what = i < nlevels ? "METADATA/level" + std::to_string(i) + ".parquet"
                                             : std::string("COLLECTION.json");
        if (offset > src.size() || src.size() - offset < size) {
            throw FormatError(src.name() + ": TACO_HEADER slot " + std::to_string(i) + " (" + what +
                              ") points at " + io::byte_range_text(offset, size) +
                              ", but the file has " + std::to_string(src.size()) +
                              " bytes (truncated file or wrong offset)");
        }
        if (i < nlevels) out.levels.push_back({what, {}, offset, size, nullptr, {}});
    }

    // The level tables and COLLECTION.json sit together at the end of the archive: a remote
    // source fetches them in one request (a gap larger than the data itself is not merged).
    uint64_t lo = UINT64_MAX, hi = 0, total = 0;
    for (const auto& [offset, size] : header.slots) {
        lo = std::min(lo, offset);
        hi = std::max(hi, offset + size);
        total += size;
    }
    if (hi > lo && hi - lo <= 2 * total + (uint64_t{1} << 20)) {
        src.prefetch(lo, hi - lo, "metadata and COLLECTION.json");
    }

    const auto [coffset, csize] = header.slots.back();
    check_json_size(csize, src.name() + ": COLLECTION.json");
    out.collection = read_collection_document(src.read_string(coffset, csize, "COLLECTION.json"),
                                              src.name() + ": COLLECTION.json");
    for (const LevelSource& level : out.levels) check_parquet_magic(src, level);
    // Last, so that a slot that is plainly wrong gets its own, more specific message first.
    check_taco_header_crc(head, src.name());
    return out;
}

}  // namespace taco::format
