// libFuzzer target: tacozip's update_header (src/tacozip/tacozip.cpp) on an arbitrary file. The
// pairs written are the ones the input's own payload holds, so a mutated TACO ZIP keeps plausible
// ones. Allowed outcomes: a taco::FormatError / IoError or std::invalid_argument that leaves the
// file unchanged, or success, after which read_header gives back exactly those pairs and no byte
// past the header changed except one 4-byte CRC in the central directory. Anything else is a bug.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "format/taco_header.hpp"
#include "taco/errors.hpp"
#include "tacozip/tacozip.hpp"

namespace {

uint64_t le64(const uint8_t* p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = v << 8 | p[i];
    return v;
}

// The pairs in the input's payload (count at byte 41, pairs from byte 45), as many as it holds.
std::vector<std::pair<uint64_t, uint64_t>> pairs_of(const uint8_t* data, size_t size) {
    std::vector<std::pair<uint64_t, uint64_t>> pairs;
    if (size < taco::format::kTacoHeaderSize) return pairs;
    const size_t count = data[41] % (taco::format::kTacoHeaderMaxSlots + 1);
    for (size_t i = 0; i < count; ++i) pairs.emplace_back(le64(data + 45 + 16 * i), le64(data + 53 + 16 * i));
    return pairs;
}

std::string read_all(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const std::string path =
        (std::filesystem::temp_directory_path() / ("fuzz_tacozip_update." + std::to_string(getpid())))
            .string();
    const std::string before(reinterpret_cast<const char*>(data), size);
    std::ofstream(path, std::ios::binary | std::ios::trunc) << before;
    taco::format::TacoHeader header;
    try {
        header = taco::tacozip::header_from_pairs(pairs_of(data, size));
        taco::tacozip::update_header(path, header);
    } catch (const taco::FormatError&) {
    } catch (const taco::IoError&) {
    } catch (const std::invalid_argument&) {
    }
    const std::string after = read_all(path);
    if (after.size() != before.size()) __builtin_trap();
    if (after == before) return 0;  // refused, or the same pairs written again
    if (taco::tacozip::read_header(path) != header) __builtin_trap();
    size_t first = std::string::npos, last = 0;
    for (size_t i = taco::format::kTacoHeaderSize; i < after.size(); ++i) {
        if (after[i] == before[i]) continue;
        if (first == std::string::npos) first = i;
        last = i;
    }
    if (first != std::string::npos && last - first >= 4) __builtin_trap();
    return 0;
}
