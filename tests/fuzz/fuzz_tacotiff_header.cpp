// libFuzzer target: the TIFF first-IFD reader behind TACOTIFFHeader (src/raster/
// tacotiff_header.cpp) on arbitrary bytes. Any outcome but a header of 35 bytes plus four per
// tile, or a taco::FormatError / SchemaError, is a bug.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "io/byte_source.hpp"
#include "raster/tacotiff_header.hpp"
#include "taco/errors.hpp"

namespace {

// The input as a ByteSource (the reader only reads through read_at).
class MemorySource final : public taco::io::ByteSource {
  public:
    MemorySource(const uint8_t* data, size_t size) : data_(data), size_(size) {}
    const std::string& name() const override { return name_; }
    uint64_t size() const override { return size_; }
    void read_at(uint64_t offset, void* buf, size_t n, const std::string& what) const override {
        check_range(offset, n, what);
        if (n) std::memcpy(buf, data_ + offset, n);
    }

  private:
    const uint8_t* data_;
    size_t size_;
    std::string name_ = "fuzz";
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const MemorySource src(data, size);
    try {
        const std::string h = taco::raster::tacotiff_header(src, "fuzz");
        if (h.size() < 35 || (h.size() - 35) % 4 != 0 || std::memcmp(h.data(), "LOVE", 4) != 0)
            __builtin_trap();
        uint32_t tiles = 0;
        std::memcpy(&tiles, h.data() + 31, 4);
        if (h.size() != 35 + 4 * static_cast<size_t>(tiles)) __builtin_trap();
    } catch (const taco::FormatError&) {
    } catch (const taco::SchemaError&) {
    }
    return 0;
}
