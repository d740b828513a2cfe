#include "legacy/v1_header.hpp"

#include <array>
#include <cstring>

#include "io/byte_source.hpp"
#include "io/little_endian.hpp"
#include "taco/errors.hpp"

namespace taco::legacy {
namespace {

std::string printable(const unsigned char* p, size_t n) {
    static const char* hex = "0123456789abcdef";
    std::string out;
    for (size_t i = 0; i < n; ++i) {
        if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\') {
            out += static_cast<char>(p[i]);
        } else {
            out += "\\x";
            out += hex[p[i] >> 4];
            out += hex[p[i] & 15];
        }
    }
    return out;
}

// pytortilla splits a dataset into at most a few thousand parts (its names have four digits).
constexpr uint64_t kMaxPartitions = 9999;

}  // namespace

const char* to_string(V1Kind kind) {
    return kind == V1Kind::Taco ? "TACO 0.2" : "Tortilla 0.5";
}

V1Header read_v1_header(const io::ByteSource& source, uint64_t base, uint64_t length,
                        const std::string& what, bool nested) {
    if (length < kV1HeaderSize) {
        throw FormatError(what +
                          ": truncated: a legacy v1 file (Tortilla 0.5 / TACO 0.2) starts with a " +
                          std::to_string(kV1HeaderSize) + "-byte header, but only " +
                          std::to_string(length) + " bytes are there");
    }
    std::array<unsigned char, kV1HeaderSize> h{};
    source.read_at(base, h.data(), h.size(), what + ": v1 header");
    V1Header out;
    if (h[0] == '#' && h[1] == 'y') {
        out.kind = V1Kind::Tortilla;
    } else if (h[0] == 'W' && h[1] == 'X' && !nested) {
        out.kind = V1Kind::Taco;
    } else {
        throw FormatError(what + ": corrupt header: expected the magic bytes " +
                          (nested ? std::string("'#y' of a nested Tortilla 0.5")
                                  : std::string("'#y' (Tortilla 0.5) or 'WX' (TACO 0.2)")) +
                          " at its start, found '" + printable(h.data(), 2) + "'");
    }
    out.footer_offset = io::load_le64(&h[2]);
    out.footer_length = io::load_le64(&h[10]);
    out.partitions = io::load_le64(&h[18]);
    size_t reserved_from = 26;
    if (out.kind == V1Kind::Taco) {
        out.collection_offset = io::load_le64(&h[26]);
        out.collection_length = io::load_le64(&h[34]);
        reserved_from = 42;
    }
    for (size_t i = reserved_from; i < kV1HeaderSize; ++i) {
        if (h[i] != 0) {
            throw FormatError(what + ": unknown v1 version: header byte " + std::to_string(i) +
                              " is " + std::to_string(h[i]) + ", but " + to_string(out.kind) +
                              " keeps bytes " + std::to_string(reserved_from) + "-199 as zero " +
                              "(a newer layout, or a corrupt header)");
        }
    }
    if (out.partitions == 0 || out.partitions > kMaxPartitions) {
        throw FormatError(what + ": corrupt header: the data partition count (bytes 18-25) is " +
                          std::to_string(out.partitions) + ", expected 1 to " +
                          std::to_string(kMaxPartitions));
    }
    auto check_range = [&](const char* name, uint64_t offset, uint64_t size) {
        if (offset < kV1HeaderSize || offset > length || length - offset < size) {
            throw FormatError(what + ": truncated or corrupt header: the " + name + " at " +
                              io::byte_range_text(offset, size) + " does not lie within the " +
                              std::to_string(length) + " bytes after the header start");
        }
    };
    check_range("FOOTER", out.footer_offset, out.footer_length);
    if (out.footer_length < 12) {
        throw FormatError(what + ": corrupt header: a FOOTER of " +
                          std::to_string(out.footer_length) +
                          " bytes cannot be a Parquet file (expected at least 12)");
    }
    if (out.kind == V1Kind::Taco) {
        check_range("COLLECTION", out.collection_offset, out.collection_length);
        if (out.collection_offset < out.footer_offset + out.footer_length) {
            throw FormatError(what + ": corrupt header: the COLLECTION (offset " +
                              std::to_string(out.collection_offset) +
                              ") starts before the end of the FOOTER (" +
                              std::to_string(out.footer_offset + out.footer_length) + ")");
        }
    }
    std::array<unsigned char, 4> head{}, tail{};
    source.read_at(base + out.footer_offset, head.data(), 4, what + ": FOOTER");
    source.read_at(base + out.footer_offset + out.footer_length - 4, tail.data(), 4,
                   what + ": FOOTER");
    if (std::memcmp(head.data(), "PAR1", 4) != 0 || std::memcmp(tail.data(), "PAR1", 4) != 0) {
        throw FormatError(what + ": corrupt FOOTER: " +
                          io::byte_range_text(out.footer_offset, out.footer_length) +
                          " should be a Parquet file (PAR1 at both ends); found '" +
                          printable(head.data(), 4) + "' ... '" + printable(tail.data(), 4) +
                          "' (an older pre-0.5 Tortilla with a JSON footer, or a damaged file)");
    }
    return out;
}

}  // namespace taco::legacy
