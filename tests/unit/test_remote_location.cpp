// io::Location (URL -> GDAL VSI path) and the metadata cache's rules: entries are served only for
// the exact identity they were stored under, damaged entries are misses, clear removes only ours.
#include <gtest/gtest.h>

#include <fstream>

#include "io/location.hpp"
#include "io/metadata_cache.hpp"
#include "taco/errors.hpp"
#include "test_util.hpp"

namespace {

using taco::io::parse_location;

TEST(RemoteLocation, SchemesMapToGdalPaths) {
    EXPECT_EQ(parse_location("https://h:8080/a/b.tacozip").vsi,
              "/vsicurl/https://h:8080/a/b.tacozip");
    EXPECT_EQ(parse_location("http://h/x").vsi, "/vsicurl/http://h/x");
    EXPECT_EQ(parse_location("s3://bucket/k/x.tacozip").vsi, "/vsis3/bucket/k/x.tacozip");
    EXPECT_EQ(parse_location("gs://b/x").vsi, "/vsigs/b/x");
    EXPECT_EQ(parse_location("gcs://b/x").vsi, "/vsigs/b/x");
    EXPECT_EQ(parse_location("az://c/x").vsi, "/vsiaz/c/x");
    EXPECT_EQ(parse_location("abfs://c@acct.dfs.core.windows.net/d/x").vsi, "/vsiaz/c/d/x");
    EXPECT_EQ(parse_location("/vsis3/b/x").vsi, "/vsis3/b/x");
    EXPECT_EQ(parse_location("/vsiswift/c/x").vsi, "/vsiswift/c/x");
    // A FOLDER's trailing slash goes; the URL's own '//' stays.
    const auto folder = parse_location("https://h/ds/");
    EXPECT_EQ(folder.text, "https://h/ds");
    EXPECT_EQ(folder.child("METADATA/level0.parquet").vsi,
              "/vsicurl/https://h/ds/METADATA/level0.parquet");
}

TEST(RemoteLocation, LocalPathsStayLocal) {
    EXPECT_FALSE(parse_location("data/x.tacozip").remote());
    EXPECT_FALSE(parse_location("/abs/x.tacozip").remote());
    EXPECT_FALSE(parse_location("/vsisubfile/1_2,/x").remote());
    EXPECT_EQ(parse_location("file:///tmp/x.tacozip").text, "/tmp/x.tacozip");
    EXPECT_FALSE(taco::io::is_remote("C:/x"));
}

TEST(RemoteLocation, BadUrlsSayWhatIsExpected) {
    using taco::test::contains;
    using taco::test::error_of;
    EXPECT_TRUE(contains(error_of<taco::IoError>([] { parse_location("ftp://h/x"); }),
                         "unsupported URL scheme 'ftp://'"));
    EXPECT_TRUE(contains(error_of<taco::IoError>([] { parse_location("s3:///x"); }),
                         "expected s3://bucket/key"));
}

TEST(MetadataCache, ServesOnlyTheSameIdentity) {
    taco::test::TempDir dir;
    setenv("TACOCORE_CACHE_DIR", dir.path().c_str(), 1);
    const taco::io::RemoteIdentity id{100, "\"e1\"", "Mon, 01 Jan 2024 00:00:00 GMT"};
    taco::io::cache_store("/vsicurl/http://h/x", id, {{0, "head"}, {90, "tail-bytes"}});
    auto hit = taco::io::cache_lookup("/vsicurl/http://h/x", id);
    ASSERT_TRUE(hit);
    ASSERT_EQ(hit->size(), 2u);
    EXPECT_EQ((*hit)[1].first, 90u);
    EXPECT_EQ((*hit)[1].second, "tail-bytes");
    auto changed = id;
    changed.etag = "\"e2\"";
    EXPECT_FALSE(taco::io::cache_lookup("/vsicurl/http://h/x", changed));
    changed = id;
    changed.size = 101;
    EXPECT_FALSE(taco::io::cache_lookup("/vsicurl/http://h/x", changed));
    EXPECT_FALSE(taco::io::cache_lookup("/vsicurl/http://h/other", id));
    // No validator from the server: never stored.
    taco::io::cache_store("/vsicurl/http://h/y", {100, "", ""}, {{0, "x"}});
    EXPECT_FALSE(taco::io::cache_lookup("/vsicurl/http://h/y", {100, "", ""}));
    // A damaged entry is a miss.
    for (const auto& e : std::filesystem::directory_iterator(dir.path())) {
        std::ofstream(e.path(), std::ios::app) << "junk";
    }
    EXPECT_FALSE(taco::io::cache_lookup("/vsicurl/http://h/x", id));
    std::ofstream(dir.path() / "not-ours.txt") << "keep";
    EXPECT_EQ(taco::io::clear_metadata_cache(), 1u);
    EXPECT_TRUE(std::filesystem::exists(dir.path() / "not-ours.txt"));
    unsetenv("TACOCORE_CACHE_DIR");
}

}  // namespace
