// format::parse_parquet_footer: the row count and the table-deciding bytes of real Parquet files
// (DuckDB's writer and the reference's pyarrow-written fixtures), and nothing but nullopt, never a
// crash or a read outside the bytes, for truncated and corrupted footers.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <string>

#include "format/parquet_footer.hpp"
#include "metadata/duckdb_session.hpp"
#include "test_util.hpp"

using namespace taco;

namespace {

std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

std::string written(metadata::DuckSession& db, const std::filesystem::path& dir,
                    const std::string& name, const std::string& select) {
    const auto path = dir / name;
    db.exec("COPY (" + select + ") TO '" + path.string() + "' (FORMAT parquet)");
    return slurp(path);
}

}  // namespace

TEST(ParquetFooter, RowCountAndTableBytesOfDuckDbFiles) {
    test::TempDir dir;
    metadata::DuckSession db;
    const std::string a = written(db, dir.path(), "a.parquet",
                                  "SELECT i::BIGINT AS n, 'x' || i AS id FROM range(5) t(i)");
    const std::string b = written(db, dir.path(), "b.parquet",
                                  "SELECT i::BIGINT AS n, 'y' || i AS id FROM range(1000) t(i)");
    const std::string c = written(db, dir.path(), "c.parquet",
                                  "SELECT i::INTEGER AS n, 'x' || i AS id FROM range(5) t(i)");
    const std::string d = written(db, dir.path(), "d.parquet",
                                  "SELECT 'x' || i AS id, i::BIGINT AS n FROM range(5) t(i)");
    const auto fa = format::parse_parquet_footer(a), fb = format::parse_parquet_footer(b),
               fc = format::parse_parquet_footer(c), fd = format::parse_parquet_footer(d);
    ASSERT_TRUE(fa && fb && fc && fd);
    EXPECT_EQ(fa->num_rows, 5);
    EXPECT_EQ(fb->num_rows, 1000);
    EXPECT_EQ(fa->table_bytes, fb->table_bytes);  // same columns and types, other rows
    EXPECT_NE(fa->table_bytes, fc->table_bytes);  // BIGINT against INTEGER
    EXPECT_NE(fa->table_bytes, fd->table_bytes);  // the same columns in another order

    const int fd_a = ::open((dir.path() / "a.parquet").c_str(), O_RDONLY);
    ASSERT_GE(fd_a, 0);
    const auto from_fd = format::read_parquet_footer(fd_a);
    ::close(fd_a);
    ASSERT_TRUE(from_fd);
    EXPECT_EQ(from_fd->table_bytes, fa->table_bytes);
    EXPECT_EQ(from_fd->file_size, a.size());
    const auto from_path = format::read_parquet_footer_file((dir.path() / "a.parquet").string());
    ASSERT_TRUE(from_path);
    EXPECT_EQ(from_path->file_size, a.size());
    EXPECT_FALSE(format::read_parquet_footer_file(dir.path().string()));  // a directory
    EXPECT_FALSE(format::read_parquet_footer_file((dir.path() / "none").string()));
    // More bytes before the footer change nothing: only the end of a file is read.
    EXPECT_EQ(format::parse_parquet_footer(std::string(100, 'z') + a)->table_bytes,
              fa->table_bytes);
}

TEST(ParquetFooter, APyarrowFileKeepsItsArrowSchemaInTheTableBytes) {
    // A pyarrow-written level table (the reference writer): its footer carries the Arrow schema
    // in the key/value metadata, which is part of the table bytes.
    const std::string level =
        slurp(std::string(TACO_FIXTURES_DIR) + "/tacoreader/folder/nested/METADATA/level1.parquet");
    const auto f = format::parse_parquet_footer(level);
    ASSERT_TRUE(f);
    EXPECT_GT(f->num_rows, 0);
    EXPECT_NE(f->table_bytes.find("ARROW:schema"), std::string::npos);
}

TEST(ParquetFooter, TruncatedOrCorruptFootersAreNulloptNeverACrash) {
    test::TempDir dir;
    metadata::DuckSession db;
    const std::string good =
        written(db, dir.path(), "g.parquet",
                "SELECT i AS n, [i, i] AS l, {'a': i} AS s FROM range(3) t(i)");
    ASSERT_TRUE(format::parse_parquet_footer(good));
    EXPECT_FALSE(format::parse_parquet_footer(""));
    EXPECT_FALSE(format::parse_parquet_footer("PAR1"));
    EXPECT_FALSE(format::parse_parquet_footer(good.substr(0, good.size() - 1)));
    for (size_t cut = 1; cut < 40 && cut < good.size(); ++cut)  // the footer, cut from the front
        EXPECT_FALSE(format::parse_parquet_footer(good.substr(good.size() - 8 - cut)));
    // A length beyond the bytes, and a length of zero.
    std::string huge = good, zero = good;
    huge[huge.size() - 8] = '\xff';
    huge[huge.size() - 7] = '\xff';
    zero.replace(zero.size() - 8, 4, std::string(4, '\0'));
    EXPECT_FALSE(format::parse_parquet_footer(huge));
    EXPECT_FALSE(format::parse_parquet_footer(zero));
    // Random bytes inside the footer: any answer but a crash (ASan checks every read).
    uint32_t length = 0;
    std::memcpy(&length, good.data() + good.size() - 8, 4);
    std::mt19937 rng(7);
    size_t parsed = 0;
    for (int i = 0; i < 3000; ++i) {
        std::string bad = good;
        for (int k = 0; k < 3; ++k) {
            const size_t at = good.size() - 8 - length + rng() % length;
            bad[at] = static_cast<char>(rng());
        }
        parsed += format::parse_parquet_footer(bad).has_value();
    }
    EXPECT_LT(parsed, 3000u);  // some corruptions are caught (not all: values may change freely)
}

TEST(ParquetFooter, NullCountsOfTopLevelColumnsOverRowGroups) {
    test::TempDir dir;
    metadata::DuckSession db;
    const auto path = dir.path() / "n.parquet";
    db.exec(
        "COPY (SELECT i AS n, CASE WHEN i % 3 = 0 THEN NULL ELSE 'x' END AS id, {'a': i} AS s, "
        "[i] AS l FROM range(10) t(i)) TO '" +
        path.string() + "' (FORMAT parquet, ROW_GROUP_SIZE 4)");
    const std::string bytes = slurp(path);
    const auto f = format::parse_parquet_footer(bytes);
    ASSERT_TRUE(f);
    EXPECT_EQ(f->num_rows, 10);
    EXPECT_EQ(f->row_group_rows, 10);
    ASSERT_TRUE(f->null_counts.count("id"));
    ASSERT_TRUE(f->null_counts.at("id").has_value());
    EXPECT_EQ(*f->null_counts.at("id"), 4);  // rows 0, 3, 6, 9, over three row groups
    EXPECT_EQ(f->null_counts.at("n"), std::optional<int64_t>(0));
    EXPECT_FALSE(f->null_counts.count("s"));  // nested columns are not counted
    EXPECT_FALSE(f->null_counts.count("l"));
}

TEST(ParquetFooter, TheReferenceLevelTablesHaveIdNullCounts) {
    for (const char* level : {"/tacoreader/folder/nested/METADATA/level0.parquet",
                              "/tacoreader/folder/nested/METADATA/level1.parquet"}) {
        const auto f = format::parse_parquet_footer(slurp(std::string(TACO_FIXTURES_DIR) + level));
        ASSERT_TRUE(f) << level;
        ASSERT_TRUE(f->null_counts.count("id")) << level;
        EXPECT_EQ(f->null_counts.at("id"), std::optional<int64_t>(0)) << level;
    }
}
