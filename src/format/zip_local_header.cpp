#include "format/zip_local_header.hpp"

#include <algorithm>
#include <cstring>

#include "format/zip_constants.hpp"

namespace taco::format {
namespace {

constexpr uint64_t kMaxExtra = 1024;

uint16_t u16(const unsigned char* p) {
    return static_cast<uint16_t>(p[0] | (p[1] << 8));
}
uint32_t u32(const unsigned char* p) {
    return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 |
           static_cast<uint32_t>(p[2]) << 16 | static_cast<uint32_t>(p[3]) << 24;
}

}  // namespace

std::optional<size_t> local_header_name_at(const io::ByteSource& archive, uint64_t data_offset,
                                           const std::vector<std::string>& names) {
    size_t longest = 0;
    for (const std::string& name : names) longest = std::max(longest, name.size());
    if (data_offset > archive.size()) return std::nullopt;
    // Every header start any name and extra length allow, read at once.
    const uint64_t window =
        std::min<uint64_t>(data_offset, zip::kLocalHeaderFixed + longest + kMaxExtra);
    std::string bytes(window, '\0');
    archive.read_at(data_offset - window, bytes.data(), window, "a local file header");
    const auto* end = reinterpret_cast<const unsigned char*>(bytes.data()) + window;
    for (size_t k = 0; k < names.size(); ++k) {
        const std::string& name = names[k];
        const uint64_t fixed = zip::kLocalHeaderFixed + name.size();
        if (name.size() > UINT16_MAX) continue;
        for (uint64_t extra = 0; fixed + extra <= window && extra <= kMaxExtra; ++extra) {
            const unsigned char* h = end - fixed - extra;
            if (u32(h) == zip::kLocalHeaderSignature && u16(h + 26) == name.size() &&
                u16(h + 28) == extra &&
                std::memcmp(h + zip::kLocalHeaderFixed, name.data(), name.size()) == 0)
                return k;
        }
    }
    return std::nullopt;
}

}  // namespace taco::format
