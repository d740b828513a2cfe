// Hostile ids and paths in a FOLDER dataset's metadata: nothing outside the dataset is read.
#include "reader_test_util.hpp"

namespace taco::test {
namespace {

// Replaces `column` of row `where_id` in a Parquet file with `value`, through DuckDB.
void rewrite(const fs::path& parquet, const std::string& column, const std::string& where_id,
             const std::string& value) {
    const fs::path tmp = parquet.string() + ".new";
    duck("COPY (SELECT * REPLACE (CASE WHEN id = '" + where_id + "' THEN '" + value + "' ELSE \"" +
         column + "\" END AS \"" + column + "\") FROM read_parquet('" + parquet.string() +
         "')) TO '" + tmp.string() + "' (FORMAT parquet)");
    fs::rename(tmp, parquet);
}

TEST(HardeningPaths, Level0IdWithDotDotIsNotRead) {
    TempDir dir;
    const fs::path ds = dir / "ds";
    create(flat_taco(3), ds);
    for (const std::string hostile : {"../../../../../../../../etc/passwd", "..", "__meta__"}) {
        rewrite(ds / "METADATA/level0.parquet", "id", "s1", hostile);
        DataFrame df = load(ds).data();
        const std::string msg = error_of<FormatError>([&] { df.read_bytes(1); });
        EXPECT_TRUE(contains(msg, "does not stay inside the dataset")) << msg;
        EXPECT_FALSE(contains(msg, "root:")) << msg;
        EXPECT_THROW(df.read(1), FormatError);
        EXPECT_THROW(df.byte_size(1), FormatError);
        EXPECT_EQ(df.read_bytes(0), sample_bytes("s0"));
        rewrite(ds / "METADATA/level0.parquet", "id", hostile, "s1");
    }
}

TEST(HardeningPaths, RelativePathWithDotDotIsNotRead) {
    TempDir dir;
    const fs::path ds = dir / "ds";
    create(deep_taco(1, 0), ds);
    rewrite(ds / "METADATA/level1.parquet", "internal:relative_path", "sensor_B",
            "tile_00/../../../../../../../../etc/");
    DataFrame level1 = load(ds).sql("SELECT * FROM level1").data();
    ASSERT_EQ(level1.rows(), 2u);
    const std::string msg = error_of<FormatError>([&] { level1.read(1); });
    EXPECT_TRUE(contains(msg, "'..' component")) << msg;
}

TEST(HardeningPaths, SymlinkOutOfDataIsRefused) {
    TempDir dir;
    const fs::path ds = dir / "ds";
    create(flat_taco(2), ds);
    fs::remove(ds / "DATA/s1");
    fs::create_symlink("/etc/passwd", ds / "DATA/s1");
    DataFrame df = load(ds).data();
    const std::string msg = error_of<FormatError>([&] { df.read_bytes(1); });
    EXPECT_TRUE(contains(msg, "symbolic link")) << msg;
    EXPECT_EQ(df.read_bytes(0), sample_bytes("s0"));
    // A link that stays inside the dataset is still followed.
    fs::remove(ds / "DATA/s1");
    fs::create_symlink("s0", ds / "DATA/s1");
    EXPECT_EQ(load(ds).data().read_bytes(1), sample_bytes("s0"));
}

}  // namespace
}  // namespace taco::test
