// The reference writer's misaligned level-1 offsets (FORMAT.md §4.3) are read corrected:
// nested.tacozip stores europe/item_0's row with americas/item_0's data (390, 15); every way of
// reading level 1 gives each sample its own entry, as the ZIP directory says (READER.md §5.1).
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "format/zip_reader.hpp"
#include "io/file.hpp"
#include "reader_test_util.hpp"

using namespace taco;
using namespace taco::test;

namespace {

// Each level-1 row's (offset, size) by relative path, from a DataFrame's columns.
std::map<std::string, std::pair<int64_t, int64_t>> locations(const DataFrame& df) {
    const size_t path = *df.column_index("internal:relative_path");
    const size_t offset = *df.column_index("internal:offset");
    const size_t size = *df.column_index("internal:size");
    std::map<std::string, std::pair<int64_t, int64_t>> out;
    for (size_t r = 0; r < df.rows(); ++r)
        out[std::string(df.get_string(r, path))] = {df.get_int(r, offset), df.get_int(r, size)};
    return out;
}

// What the ZIP's own entries say.
std::map<std::string, std::pair<int64_t, int64_t>> entries_of(const std::string& zip) {
    const auto dir =
        format::read_zip_directory(io::File::open_read(zip), zip, format::ZipReadOptions{});
    std::map<std::string, std::pair<int64_t, int64_t>> out;
    for (const auto& e : dir.entries()) {
        const std::string name(e.name);
        if (name.rfind("DATA/", 0) != 0) continue;
        out[name.substr(5)] = {static_cast<int64_t>(e.data_offset),
                               static_cast<int64_t>(e.uncompressed_size)};
    }
    return out;
}

}  // namespace

TEST(LevelOffsets, MisalignedReferenceLevelReadsEachSamplesOwnEntry) {
    const auto truth = entries_of(kNestedZip);
    const Dataset ds = load(kNestedZip);
    // The level's own DataFrame (which otherwise scans the file) and SQL over its view.
    for (const DataFrame& df :
         {ds.level(1).data_raw(), ds.sql("SELECT * FROM level1").data_raw()}) {
        const auto got = locations(df);
        ASSERT_EQ(got.size(), 9u);
        for (const auto& [path, where] : got) EXPECT_EQ(where, truth.at(path)) << path;
        EXPECT_EQ(got.at("europe/item_0"), std::make_pair(int64_t{205}, int64_t{13}));
    }
    // Filters on the corrected columns see the corrected values.
    const DataFrame one = ds.sql("SELECT * FROM level1 WHERE \"internal:offset\" = 390").data_raw();
    ASSERT_EQ(one.rows(), 1u);
    EXPECT_EQ(one.get_string(0, *one.column_index("internal:relative_path")), "americas/item_0");
}

TEST(LevelOffsets, AlignedReferenceLevelsAreReadAsStored) {
    for (const std::string& zip : {kNestedAZip, kNestedBZip}) {
        SCOPED_TRACE(zip);
        const auto truth = entries_of(zip);
        const auto got = locations(load(zip).level(1).data_raw());
        ASSERT_FALSE(got.empty());
        for (const auto& [path, where] : got) {
            const std::string trimmed = path.back() == '/' ? path.substr(0, path.size() - 1) : path;
            const auto it = truth.find(trimmed);
            const auto meta = truth.find(trimmed + "/__meta__");
            ASSERT_TRUE(it != truth.end() || meta != truth.end()) << path;
            EXPECT_EQ(where, (it != truth.end() ? it : meta)->second) << path;
        }
    }
}
