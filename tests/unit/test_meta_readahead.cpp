// Navigation reads FOLDER `__meta__` tables ahead, several per DuckDB statement, once reads keep
// missing the cache at a level (query/meta_readahead.hpp). Whatever it reads ahead must be the
// very table a read of that FOLDER alone gives: same columns, types and rows, padding hidden, the
// same paths; a `__meta__` that differs in columns, or cannot be read, is left to its own read,
// with that read's error.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "reader_test_util.hpp"

using namespace taco;
using namespace taco::test;

namespace {

constexpr size_t kTiles = 20;

std::string tile(size_t t) {
    return "tile_0" + std::to_string(t);
}

// Every cell of a frame, with its schema, as one comparable value.
struct Dump {
    std::vector<ColumnType> schema;
    std::vector<Value> cells;
    bool operator==(const Dump&) const = default;
};

Dump dump(const DataFrame& df) {
    Dump d{df.schema(), {}};
    for (size_t r = 0; r < df.rows(); ++r)
        for (size_t c = 0; c < df.columns(); ++c) d.cells.push_back(df.value(r, c));
    return d;
}

// The FOLDERs of a deep_taco dataset: each tile, and each tile's two sensors.
std::vector<std::string> folder_paths() {
    std::vector<std::string> out;
    for (size_t t = 0; t < kTiles; ++t) {
        out.push_back(tile(t));
        out.push_back(tile(t) + "/sensor_A");
        out.push_back(tile(t) + "/sensor_B");
    }
    return out;
}

DataFrame walk(const DataFrame& top, const std::string& path) {
    DataFrame f = top;
    size_t start = 0;
    while (true) {
        const size_t slash = path.find('/', start);
        f = frame_of(
            f.read(path.substr(start, slash == std::string::npos ? slash : slash - start)));
        if (slash == std::string::npos) return f;
        start = slash + 1;
    }
}

// Each FOLDER's children in a fresh dataset, where its read is the first miss (read alone).
std::map<std::string, Dump> read_alone(const fs::path& ds, const std::vector<std::string>& paths) {
    std::map<std::string, Dump> out;
    for (const std::string& p : paths) {
        // A sensor's tile is read first, then the sensor: each the first miss of its level.
        out[p] = dump(walk(load(ds).data(), p));
    }
    return out;
}

// The same FOLDERs in one dataset, in a shuffled order: most are read ahead.
std::map<std::string, Dump> read_shuffled(const fs::path& ds, std::vector<std::string> paths) {
    std::shuffle(paths.begin(), paths.end(), std::mt19937(11));
    DataFrame top = load(ds).data();
    std::map<std::string, Dump> out;
    for (const std::string& p : paths) out[p] = dump(walk(top, p));
    return out;
}

}  // namespace

TEST(MetaReadahead, ZipTablesReadAheadEqualTheirOwnReads) {
    TempDir dir;
    create(deep_taco(kTiles, 4), dir / "deep.tacozip");  // padded: rows to hide in each __meta__
    const auto paths = folder_paths();
    const auto alone = read_alone(dir / "deep.tacozip", paths);
    const auto shuffled = read_shuffled(dir / "deep.tacozip", paths);
    ASSERT_EQ(alone.size(), paths.size());
    for (const auto& p : paths) EXPECT_TRUE(alone.at(p) == shuffled.at(p)) << p;
}

TEST(MetaReadahead, FolderTablesReadAheadEqualTheirOwnReads) {
    TempDir dir;
    create(deep_taco(kTiles, 0), dir / "deep");
    const auto paths = folder_paths();
    const auto alone = read_alone(dir / "deep", paths);
    const auto shuffled = read_shuffled(dir / "deep", paths);
    for (const auto& p : paths) EXPECT_TRUE(alone.at(p) == shuffled.at(p)) << p;
}

TEST(MetaReadahead, AMetaWithOtherColumnsKeepsThem) {
    // PIT-2 broken on purpose: one tile's __meta__ has a column its siblings lack. Read in the
    // same statement as theirs, DuckDB would drop it; it must be read on its own.
    TempDir dir;
    create(deep_taco(kTiles, 0), dir / "deep");
    const fs::path meta = dir / "deep" / "DATA" / tile(5) / "__meta__";
    duck("COPY (SELECT *, 42 AS extra FROM read_parquet('" + meta.string() + "')) TO '" +
         (dir / "m.parquet").string() + "' (FORMAT parquet)");
    fs::rename(dir / "m.parquet", meta);
    const auto shuffled = read_shuffled(dir / "deep", folder_paths());
    const Dump& odd = shuffled.at(tile(5));
    ASSERT_TRUE(std::any_of(odd.schema.begin(), odd.schema.end(),
                            [](const ColumnType& c) { return c.name == "extra"; }));
    EXPECT_TRUE(odd == read_alone(dir / "deep", {tile(5)}).at(tile(5)));
    const Dump& other = shuffled.at(tile(6));
    EXPECT_TRUE(std::none_of(other.schema.begin(), other.schema.end(),
                             [](const ColumnType& c) { return c.name == "extra"; }));
}

TEST(MetaReadahead, AnUnreadableMetaFailsOnlyWhenAskedFor) {
    TempDir dir;
    create(deep_taco(kTiles, 0), dir / "deep");
    spit(dir / "deep" / "DATA" / tile(7) / "__meta__", "not a parquet file");
    std::vector<std::string> others;
    for (const std::string& p : folder_paths())
        if (p.rfind(tile(7), 0) != 0) others.push_back(p);
    EXPECT_EQ(read_shuffled(dir / "deep", others).size(), others.size());
    const DataFrame top = load(dir / "deep").data();
    for (size_t t = 0; t < kTiles; ++t)  // misses at level 0: the window grows past tile 7
        if (t != 7) walk(top, tile(t));
    const std::string message = error_of<FormatError>([&] { walk(top, tile(7)); });
    EXPECT_TRUE(contains(message, "__meta__ of FOLDER '" + tile(7) + "'")) << message;
    EXPECT_TRUE(contains(message, "not a readable Parquet file")) << message;
}
