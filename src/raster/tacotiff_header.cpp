#include "raster/tacotiff_header.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <numeric>
#include <vector>

#include "io/byte_source.hpp"
#include "taco/errors.hpp"

namespace taco::raster {
namespace {

constexpr uint32_t kMagic = 0x45564F4C;  // "LOVE", tacotiff's TACO_MAGIC
constexpr uint16_t kVersion = 1;
constexpr uint64_t kMaxEntries = 4096;  // a real first IFD has a few dozen

enum Tag : uint16_t {
    kImageWidth = 256,
    kImageLength = 257,
    kBitsPerSample = 258,
    kSamplesPerPixel = 277,
    kPredictor = 317,
    kTileWidth = 322,
    kTileLength = 323,
    kTileOffsets = 324,
    kTileByteCounts = 325,
    kSampleFormat = 339,
};

// The size of one value of a TIFF field type; 0 for a type this reader does not know.
unsigned type_size(uint16_t type) {
    switch (type) {
        case 1:
        case 2:
        case 6:
        case 7:
            return 1;  // BYTE, ASCII, SBYTE, UNDEFINED
        case 3:
        case 8:
            return 2;  // SHORT, SSHORT
        case 4:
        case 9:
        case 11:
        case 13:
            return 4;  // LONG, SLONG, FLOAT, IFD
        case 5:
        case 10:
        case 12:
        case 16:
        case 17:
        case 18:
            return 8;
        default:
            return 0;
    }
}

bool is_unsigned_integer(uint16_t type) {
    return type == 1 || type == 3 || type == 4 || type == 13 || type == 16 || type == 18;
}

class IfdReader {
  public:
    IfdReader(const io::ByteSource& source, std::string what)
        : source_(source), what_(std::move(what)) {}

    // Reads the first IFD's entries of the tags this header needs.
    void read() {
        if (source_.size() < 8) fail("is not a TIFF file (fewer than 8 bytes)");
        std::array<unsigned char, 16> h{};
        source_.read_at(0, h.data(), std::min<uint64_t>(16, source_.size()), what_);
        if (h[0] == 'I' && h[1] == 'I') {
            big_endian_ = false;
        } else if (h[0] == 'M' && h[1] == 'M') {
            big_endian_ = true;
        } else {
            fail("is not a TIFF file (no 'II' or 'MM' byte order mark)");
        }
        const uint64_t version = number(&h[2], 2);
        uint64_t ifd = 0;
        if (version == 42) {
            ifd = number(&h[4], 4);
        } else if (version == 43 && source_.size() >= 16) {
            bigtiff_ = true;
            ifd = number(&h[8], 8);
        } else {
            fail("is not a TIFF file (version " + std::to_string(version) + ", expected 42 or 43)");
        }
        const unsigned count_size = bigtiff_ ? 8 : 2, entry_size = bigtiff_ ? 20 : 12;
        check_range(ifd, count_size, "the first IFD");
        std::array<unsigned char, 8> c{};
        source_.read_at(ifd, c.data(), count_size, what_);
        const uint64_t entries = number(c.data(), count_size);
        if (entries > kMaxEntries)
            fail("is damaged: its first IFD claims " + std::to_string(entries) + " entries");
        check_range(ifd + count_size, entries * entry_size, "the first IFD");
        std::vector<unsigned char> block(entries * entry_size);
        source_.read_at(ifd + count_size, block.data(), block.size(), what_);
        for (uint64_t i = 0; i < entries; ++i) {
            const unsigned char* e = block.data() + i * entry_size;
            Entry entry;
            entry.type = static_cast<uint16_t>(number(e + 2, 2));
            entry.count = number(e + 4, bigtiff_ ? 8 : 4);
            const unsigned char* field = e + (bigtiff_ ? 12 : 8);
            std::copy(field, field + (bigtiff_ ? 8 : 4), entry.field.begin());
            entries_[static_cast<uint16_t>(number(e, 2))] = entry;
        }
    }

    bool has(uint16_t tag) const { return entries_.count(tag) != 0; }

    // Every value of an unsigned integer tag.
    std::vector<uint64_t> values(uint16_t tag, const char* name) const {
        const auto it = entries_.find(tag);
        if (it == entries_.end()) {
            schema_fail(std::string("lacks the TIFF tag ") + name +
                        ", which a TACOTIFF header needs");
        }
        const Entry& e = it->second;
        const unsigned size = type_size(e.type);
        if (!is_unsigned_integer(e.type) || size == 0) {
            fail(std::string("is damaged: its ") + name + " tag has field type " +
                 std::to_string(e.type) + ", expected an unsigned integer");
        }
        if (e.count > source_.size() / size)
            fail(std::string("is damaged: its ") + name + " tag is too long");
        const uint64_t bytes = e.count * size;
        std::vector<unsigned char> raw(bytes);
        if (bytes <= (bigtiff_ ? 8u : 4u)) {
            std::copy(e.field.begin(), e.field.begin() + bytes, raw.begin());
        } else {
            const uint64_t at = number(e.field.data(), bigtiff_ ? 8 : 4);
            check_range(at, bytes, name);
            source_.read_at(at, raw.data(), raw.size(), what_);
        }
        std::vector<uint64_t> out(e.count);
        for (uint64_t i = 0; i < e.count; ++i) out[i] = number(raw.data() + i * size, size);
        return out;
    }

    uint64_t first(uint16_t tag, const char* name) const {
        const auto v = values(tag, name);
        if (v.empty()) fail(std::string("is damaged: its ") + name + " tag has no value");
        return v[0];
    }

    [[noreturn]] void schema_fail(const std::string& message) const {
        throw SchemaError(what_ + ": " + message);
    }
    [[noreturn]] void fail(const std::string& message) const {
        throw FormatError(what_ + ": " + message);
    }

  private:
    struct Entry {
        uint16_t type = 0;
        uint64_t count = 0;
        std::array<unsigned char, 8> field{};
    };

    uint64_t number(const unsigned char* p, unsigned n) const {
        uint64_t v = 0;
        for (unsigned i = 0; i < n; ++i) {
            const unsigned shift = big_endian_ ? 8 * (n - 1 - i) : 8 * i;
            v |= static_cast<uint64_t>(p[i]) << shift;
        }
        return v;
    }

    void check_range(uint64_t offset, uint64_t n, const std::string& name) const {
        if (offset > source_.size() || source_.size() - offset < n)
            fail("is truncated or damaged: " + name + " lies outside the file");
    }

    const io::ByteSource& source_;
    std::string what_;
    bool big_endian_ = false;
    bool bigtiff_ = false;
    std::map<uint16_t, Entry> entries_;
};

void put(std::string& out, uint64_t v, unsigned n) {
    for (unsigned i = 0; i < n; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

}  // namespace

std::string tacotiff_header(const std::string& path, const std::string& what) {
    return tacotiff_header(*io::open_local_source(path), what);
}

std::string tacotiff_header(const io::ByteSource& source, const std::string& what) {
    IfdReader ifd(source, what);
    ifd.read();
    if (!ifd.has(kTileWidth))
        ifd.schema_fail("is not tiled (TACOTIFF only supports tiled TIFF files)");
    const uint64_t width = ifd.first(kImageWidth, "ImageWidth");
    const uint64_t length = ifd.first(kImageLength, "ImageLength");
    const uint64_t tile_width = ifd.first(kTileWidth, "TileWidth");
    const uint64_t tile_length = ifd.first(kTileLength, "TileLength");
    const uint64_t samples =
        ifd.has(kSamplesPerPixel) ? ifd.first(kSamplesPerPixel, "SamplesPerPixel") : 1;
    const uint64_t bits = ifd.first(kBitsPerSample, "BitsPerSample");
    const uint64_t format = ifd.first(kSampleFormat, "SampleFormat");
    const uint64_t predictor = ifd.first(kPredictor, "Predictor");
    const std::vector<uint64_t> offsets = ifd.values(kTileOffsets, "TileOffsets");
    const std::vector<uint64_t> counts = ifd.values(kTileByteCounts, "TileByteCounts");
    if (offsets.empty()) ifd.schema_fail("has no tiles");
    if (offsets.size() != counts.size()) {
        ifd.fail("is damaged: " + std::to_string(offsets.size()) + " TileOffsets but " +
                 std::to_string(counts.size()) + " TileByteCounts");
    }
    auto fits = [&](uint64_t v, uint64_t max, const char* name) {
        if (v > max) {
            ifd.schema_fail(std::string(name) + " is " + std::to_string(v) +
                            ", more than a TACOTIFF header holds (" + std::to_string(max) + ")");
        }
    };
    fits(width, UINT32_MAX, "ImageWidth");
    fits(length, UINT32_MAX, "ImageLength");
    fits(tile_width, UINT16_MAX, "TileWidth");
    fits(tile_length, UINT16_MAX, "TileLength");
    fits(samples, UINT16_MAX, "SamplesPerPixel");
    fits(bits, UINT8_MAX, "BitsPerSample");
    fits(format, UINT8_MAX, "SampleFormat");
    fits(predictor, UINT8_MAX, "Predictor");
    fits(offsets.size(), UINT32_MAX, "the tile count");
    // Tiles in the order they lie in the file (tacotiff sorts (offset, index) pairs, so equal
    // offsets keep their TIFF order: a stable sort by offset).
    std::vector<size_t> order(offsets.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return offsets[a] < offsets[b]; });
    std::string out;
    out.reserve(35 + 4 * counts.size());
    put(out, kMagic, 4);
    put(out, kVersion, 2);
    put(out, width, 4);
    put(out, length, 4);
    put(out, tile_width, 2);
    put(out, tile_length, 2);
    put(out, samples, 2);
    put(out, bits, 1);
    put(out, format, 1);
    put(out, predictor, 1);
    put(out, *std::min_element(offsets.begin(), offsets.end()), 8);
    put(out, offsets.size(), 4);
    for (size_t i : order) {
        fits(counts[i], UINT32_MAX, "a tile's byte count");
        put(out, counts[i], 4);
    }
    return out;
}

}  // namespace taco::raster
