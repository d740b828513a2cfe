// Parquet's footer is a FileMetaData struct in Thrift's compact protocol. Only its top level is
// interpreted here (field 3, num_rows); fields 2 (schema) and 5 (key/value metadata) are kept as
// the bytes they are, and everything else is skipped by a generic walk of the protocol.
#include "format/parquet_footer.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <map>

namespace taco::format {
namespace {

// Compact protocol type codes.
enum : uint8_t {
    kStop = 0,
    kTrue = 1,
    kFalse = 2,
    kByte = 3,
    kI16 = 4,
    kI32 = 5,
    kI64 = 6,
    kDouble = 7,
    kBinary = 8,
    kList = 9,
    kSet = 10,
    kMap = 11,
    kStruct = 12,
};

constexpr int kMaxDepth = 64;               // Parquet's schema is a flat list: 3 levels deep
constexpr uint32_t kMaxFooter = 64u << 20;  // no writer makes a footer this large

class Walker {
  public:
    explicit Walker(std::string_view bytes) : p_(bytes.data()), end_(bytes.data() + bytes.size()) {}

    const char* at() const { return p_; }
    bool ok() const { return ok_; }
    // Gives up on the footer (a value that cannot be right, such as a count that overflows).
    void invalidate() { fail(); }

    uint64_t varint() {
        uint64_t v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (p_ == end_) return fail();
            const auto b = static_cast<uint8_t>(*p_++);
            v |= static_cast<uint64_t>(b & 0x7f) << shift;
            if (!(b & 0x80)) return v;
        }
        return fail();
    }
    int64_t zigzag() {
        const uint64_t v = varint();
        return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
    }
    uint8_t byte() {
        if (p_ == end_) return static_cast<uint8_t>(fail());
        return static_cast<uint8_t>(*p_++);
    }
    void skip_bytes(uint64_t n) {
        if (static_cast<uint64_t>(end_ - p_) < n) {
            fail();
            return;
        }
        p_ += n;
    }

    // Skips one value of compact type `type` (in a list or map, booleans are a byte each).
    void skip(uint8_t type, int depth, bool in_container) {
        if (!ok_ || depth > kMaxDepth) {
            fail();
            return;
        }
        switch (type) {
            case kTrue:
            case kFalse:
                if (in_container) byte();
                return;
            case kByte:
                byte();
                return;
            case kI16:
            case kI32:
            case kI64:
                varint();
                return;
            case kDouble:
                skip_bytes(8);
                return;
            case kBinary:
                skip_bytes(varint());
                return;
            case kList:
            case kSet: {
                const uint8_t header = byte();
                uint64_t n = header >> 4;
                if (n == 15) n = varint();
                for (uint64_t i = 0; i < n && ok_; ++i) skip(header & 0x0f, depth + 1, true);
                return;
            }
            case kMap: {
                const uint64_t n = varint();
                if (n == 0) return;
                const uint8_t types = byte();
                for (uint64_t i = 0; i < n && ok_; ++i) {
                    skip(types >> 4, depth + 1, true);
                    skip(types & 0x0f, depth + 1, true);
                }
                return;
            }
            case kStruct:
                skip_struct(depth + 1);
                return;
            default:
                fail();
        }
    }

    void skip_struct(int depth) {
        int16_t id = 0;
        while (ok_) {
            uint8_t type = 0;
            if (!field(id, type)) return;
            skip(type, depth, false);
        }
    }

    // The next field header of a struct: false at its stop byte (or on bad bytes).
    bool field(int16_t& id, uint8_t& type) {
        const uint8_t header = byte();
        if (!ok_ || header == kStop) return false;
        type = header & 0x0f;
        const uint8_t delta = header >> 4;
        id = delta ? static_cast<int16_t>(id + delta) : static_cast<int16_t>(zigzag());
        return ok_;
    }

  private:
    uint64_t fail() {
        ok_ = false;
        p_ = end_;
        return 0;
    }

    const char* p_;
    const char* end_;
    bool ok_ = true;
};

// Field ids of the structs read below (parquet.thrift).
constexpr int16_t kRowGroupColumns = 1;      // RowGroup.columns: list<ColumnChunk>
constexpr int16_t kRowGroupRows = 3;         // RowGroup.num_rows: i64
constexpr int16_t kChunkMetaData = 3;        // ColumnChunk.meta_data: ColumnMetaData
constexpr int16_t kMetaPath = 3;             // ColumnMetaData.path_in_schema: list<string>
constexpr int16_t kMetaStatistics = 12;      // ColumnMetaData.statistics: Statistics
constexpr int16_t kStatisticsNullCount = 3;  // Statistics.null_count: i64

// One column chunk's top-level column name and NULL count (nullopt: no statistic).
struct ChunkNulls {
    std::string column;
    bool nested = false;
    std::optional<int64_t> nulls;
};

std::optional<int64_t> read_statistics(Walker& w, int depth) {
    std::optional<int64_t> nulls;
    int16_t id = 0;
    uint8_t type = 0;
    while (w.field(id, type)) {
        if (id == kStatisticsNullCount && type == kI64) {
            nulls = w.zigzag();
        } else {
            w.skip(type, depth, false);
        }
    }
    return nulls;
}

void read_column_meta(Walker& w, ChunkNulls& out, int depth) {
    int16_t id = 0;
    uint8_t type = 0;
    while (w.field(id, type)) {
        if (id == kMetaPath && type == kList) {
            const uint8_t header = w.byte();
            uint64_t n = header >> 4;
            if (n == 15) n = w.varint();
            if ((header & 0x0f) != kBinary) {
                for (uint64_t i = 0; i < n && w.ok(); ++i) w.skip(header & 0x0f, depth + 1, true);
                continue;
            }
            out.nested = n != 1;
            for (uint64_t i = 0; i < n && w.ok(); ++i) {
                const uint64_t len = w.varint();
                const char* at = w.at();
                w.skip_bytes(len);
                if (i == 0 && w.ok()) out.column.assign(at, static_cast<size_t>(len));
            }
        } else if (id == kMetaStatistics && type == kStruct) {
            out.nulls = read_statistics(w, depth + 1);
        } else {
            w.skip(type, depth, false);
        }
    }
}

// RowGroup.columns, adding each chunk's NULLs to `nulls` (a column seen without a count becomes
// nullopt for good).
void read_row_group(Walker& w, std::map<std::string, std::optional<int64_t>, std::less<>>& nulls,
                    int64_t& rows, int depth) {
    int16_t id = 0;
    uint8_t type = 0;
    while (w.field(id, type)) {
        if (id == kRowGroupRows && type == kI64) {
            if (__builtin_add_overflow(rows, w.zigzag(), &rows)) w.invalidate();
            continue;
        }
        if (id != kRowGroupColumns || type != kList) {
            w.skip(type, depth, false);
            continue;
        }
        const uint8_t header = w.byte();
        uint64_t n = header >> 4;
        if (n == 15) n = w.varint();
        for (uint64_t i = 0; i < n && w.ok(); ++i) {
            if ((header & 0x0f) != kStruct) {
                w.skip(header & 0x0f, depth + 1, true);
                continue;
            }
            ChunkNulls chunk;
            int16_t cid = 0;
            uint8_t ctype = 0;
            while (w.field(cid, ctype)) {
                if (cid == kChunkMetaData && ctype == kStruct) {
                    read_column_meta(w, chunk, depth + 2);
                } else {
                    w.skip(ctype, depth + 2, false);
                }
            }
            if (chunk.nested || chunk.column.empty()) continue;
            auto [it, fresh] = nulls.try_emplace(chunk.column, int64_t{0});
            int64_t sum = 0;
            if (!chunk.nulls || !it->second ||
                __builtin_add_overflow(*it->second, *chunk.nulls, &sum)) {
                it->second = std::nullopt;
            } else {
                it->second = sum;
            }
        }
    }
}

}  // namespace

std::optional<ParquetFooter> parse_parquet_footer(std::string_view tail) {
    if (tail.size() < 8 || tail.substr(tail.size() - 4) != "PAR1") return std::nullopt;
    uint32_t length = 0;
    std::memcpy(&length, tail.data() + tail.size() - 8, 4);  // little-endian, as Parquet writes
    if (length == 0 || length > kMaxFooter || length > tail.size() - 8) return std::nullopt;
    Walker w(tail.substr(tail.size() - 8 - length, length));
    ParquetFooter out;
    bool rows = false, schema = false;
    int16_t id = 0;
    uint8_t type = 0;
    while (w.field(id, type)) {
        const char* start = w.at();
        if (id == 3 && type == kI64) {
            out.num_rows = w.zigzag();
            rows = true;
            continue;
        }
        if (id == 4 && type == kList) {  // row_groups: the columns' statistics
            const uint8_t header = w.byte();
            uint64_t n = header >> 4;
            if (n == 15) n = w.varint();
            for (uint64_t i = 0; i < n && w.ok(); ++i) {
                if ((header & 0x0f) == kStruct) {
                    read_row_group(w, out.null_counts, out.row_group_rows, 2);
                } else {
                    w.skip(header & 0x0f, 2, true);
                }
            }
            if (!w.ok()) return std::nullopt;
            continue;
        }
        w.skip(type, 1, false);
        if (!w.ok()) return std::nullopt;
        if (id == 2 || id == 5) {
            // The field's id and type go in too: a file with no key/value metadata must not
            // look like one whose schema bytes happen to end the same way.
            out.table_bytes += static_cast<char>(id);
            out.table_bytes += static_cast<char>(type);
            out.table_bytes.append(start, static_cast<size_t>(w.at() - start));
            schema = schema || id == 2;
        }
    }
    if (!w.ok() || !rows || !schema || out.num_rows < 0) return std::nullopt;
    return out;
}

std::optional<ParquetFooter> read_parquet_footer(int fd) {
    struct stat st {};
    if (::fstat(fd, &st) != 0 || st.st_size < 12) return std::nullopt;
    const auto size = static_cast<uint64_t>(st.st_size);
    char last[8];
    if (::pread(fd, last, 8, static_cast<off_t>(size - 8)) != 8) return std::nullopt;
    uint32_t length = 0;
    std::memcpy(&length, last, 4);
    if (std::memcmp(last + 4, "PAR1", 4) != 0 || length == 0 || length > kMaxFooter ||
        length > size - 12) {
        return std::nullopt;
    }
    std::string tail(length + 8, '\0');
    if (::pread(fd, tail.data(), tail.size(), static_cast<off_t>(size - tail.size())) !=
        static_cast<ssize_t>(tail.size())) {
        return std::nullopt;
    }
    auto footer = parse_parquet_footer(tail);
    if (footer) footer->file_size = size;
    return footer;
}

std::optional<ParquetFooter> read_parquet_footer_file(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return std::nullopt;
    struct stat st {};
    std::optional<ParquetFooter> footer;
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) footer = read_parquet_footer(fd);
    ::close(fd);
    return footer;
}

}  // namespace taco::format
