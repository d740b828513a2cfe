// tacozip's operations on tacocore's ZIP code (src/tacozip/): update_header against the headers
// the reference patched into its fixtures, and the refusals that keep a header honest.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "taco/errors.hpp"
#include "tacozip/tacozip.hpp"

#include "test_util.hpp"

namespace fs = std::filesystem;
using taco::test::TempDir;
using Pairs = std::vector<std::pair<uint64_t, uint64_t>>;

namespace {

const char* kFlat = "tacoreader/zip/flat/flat.tacozip";
const Pairs kFlatSlots = {{490, 5703}, {6238, 2451}};  // FORMAT.md §2.3

std::string read_bytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    EXPECT_TRUE(in) << path;
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_bytes(const fs::path& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

fs::path flat_copy(const TempDir& tmp) {
    const fs::path copy = tmp / "flat.tacozip";
    fs::copy_file(fs::path(TACO_FIXTURES_DIR) / kFlat, copy);
    return copy;
}

}  // namespace

// The reference wrote the fixture's header with tacozip.update_header: patching the same slots
// again must reproduce every byte (payload, local header CRC, central directory CRC).
TEST(Tacozip, UpdateHeaderReproducesTheReferencePatch) {
    TempDir tmp;
    const fs::path copy = flat_copy(tmp);
    const std::string original = read_bytes(copy);
    taco::tacozip::update_header(copy, taco::tacozip::header_from_pairs({}));
    EXPECT_NE(read_bytes(copy), original);
    EXPECT_TRUE(taco::tacozip::read_header(copy).slots.empty());
    taco::tacozip::update_header(copy, taco::tacozip::header_from_pairs(kFlatSlots));
    EXPECT_EQ(read_bytes(copy), original);
}

TEST(Tacozip, UpdateHeaderRefusesASlotThatIsNotAnEntrysData) {
    TempDir tmp;
    const fs::path copy = flat_copy(tmp);
    const std::string original = read_bytes(copy);
    // 437 is level0's local header, not its data (490): the usual off-by-a-header mistake.
    try {
        taco::tacozip::update_header(copy, taco::tacozip::header_from_pairs({{437, 5703}}));
        FAIL() << "accepted a slot pointing at a local header";
    } catch (const std::invalid_argument& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("slot 0 (437, 5703)"), std::string::npos) << what;
        EXPECT_NE(
            what.find("the closest match, 'METADATA/level0.parquet', has its data at (490, 5703)"),
            std::string::npos)
            << what;
    }
    EXPECT_EQ(read_bytes(copy), original);
}

TEST(Tacozip, UpdateHeaderRefusesTheHeadersOwnPayloadAndTheCentralDirectory) {
    TempDir tmp;
    const fs::path copy = flat_copy(tmp);
    const std::string original = read_bytes(copy);
    for (const Pairs& slots : {Pairs{{41, 116}}, Pairs{{6238, 2452}}, Pairs{{8689, 482}}}) {
        EXPECT_THROW(taco::tacozip::update_header(copy, taco::tacozip::header_from_pairs(slots)),
                     std::invalid_argument)
            << slots[0].first;
    }
    EXPECT_EQ(read_bytes(copy), original);
}

TEST(Tacozip, UpdateHeaderRefusesAFileThatIsNotATacoZip) {
    TempDir tmp;
    const fs::path copy = flat_copy(tmp);
    std::string bytes = read_bytes(copy);
    bytes.replace(30, 11, "NOT_HEADERX");
    write_bytes(copy, bytes);
    EXPECT_THROW(taco::tacozip::update_header(copy, taco::tacozip::header_from_pairs(kFlatSlots)),
                 taco::FormatError);
    EXPECT_EQ(read_bytes(copy), bytes);
    EXPECT_THROW(taco::tacozip::update_header(tmp / "missing.zip", {}), taco::IoError);
}

TEST(Tacozip, PairsArePackedAndTrailingPlaceholdersDropped) {
    using taco::tacozip::header_from_pairs;
    EXPECT_TRUE(header_from_pairs({{0, 0}}).slots.empty());  // tacozip's default placeholder
    EXPECT_EQ(header_from_pairs({{5, 6}, {0, 0}}).slots, (Pairs{{5, 6}}));
    EXPECT_THROW(header_from_pairs({{0, 0}, {5, 6}}), std::invalid_argument);
    EXPECT_THROW(header_from_pairs(Pairs(8, {1, 1})), std::invalid_argument);
}

TEST(Tacozip, CreateLeavesNothingWhenASourceIsMissing) {
    TempDir tmp;
    write_bytes(tmp / "a.bin", "abc");
    const fs::path out = tmp / "out.zip";
    EXPECT_THROW(taco::tacozip::create(out, {{tmp / "a.bin", "a"}, {tmp / "missing", "b"}}, {}),
                 taco::IoError);
    EXPECT_EQ(std::distance(fs::directory_iterator(tmp.path()), fs::directory_iterator()), 1);
}
