// ResultTable::scan_parquet against ResultTable::fetch on the same file: every type the scan
// copies, NULLs, inline and long strings, several row groups and a last partial chunk; and the
// cases it leaves to fetch().
#include <gtest/gtest.h>

#include <fstream>

#include "metadata/duckdb_session.hpp"
#include "metadata/result_table.hpp"
#include "taco/errors.hpp"
#include "test_util.hpp"

using namespace taco;
using namespace taco::metadata;
using taco::test::TempDir;

namespace {

// 10,007 rows in row groups of 3,000 (so chunks are not all 2,048 rows), every 7th cell NULL.
std::string write_table(DuckSession& db, const TempDir& dir) {
    const std::string path = (dir / "t.parquet").string();
    db.exec(
        "COPY (SELECT i AS n64, i::INTEGER AS n32, (i * 0.5)::DOUBLE AS f64, (i * 0.25)::FLOAT AS "
        "f32, "
        "i % 2 = 0 AS flag, TIMESTAMP '2023-01-01' + INTERVAL (i) SECOND AS ts, "
        "CASE WHEN i % 7 = 0 THEN NULL ELSE 'short_' || i END AS short_text, "
        "CASE WHEN i % 7 = 3 THEN NULL ELSE 'a rather long text, sample ' || i END AS long_text, "
        "CASE WHEN i % 7 = 5 THEN NULL ELSE ('bytes' || i)::BLOB END AS bytes, "
        "['x'] AS list_col, DATE '2023-01-01' AS day FROM range(10007) t(i)) TO " +
        quote_literal(path) + " (FORMAT parquet, ROW_GROUP_SIZE 3000)");
    return path;
}

TEST(ResultScan, SameCellsAsAQueryResult) {
    TempDir dir;
    DuckSession db;
    const std::string path = write_table(db, dir);
    const std::vector<std::string> cols = {"n64", "n32",        "f64",       "f32",  "flag",
                                           "ts",  "short_text", "long_text", "bytes"};
    auto scanned = ResultTable::scan_parquet(db, path, cols);
    ASSERT_TRUE(scanned);
    auto fetched = ResultTable::fetch(
        db, "SELECT n64, n32, f64, f32, flag, ts, short_text, long_text, bytes FROM read_parquet(" +
                quote_literal(path) + ")");
    ASSERT_EQ(scanned->rows(), 10007u);
    ASSERT_EQ(scanned->schema(), fetched->schema());
    for (size_t r = 0; r < fetched->rows(); ++r) {
        for (size_t c = 0; c < cols.size(); ++c) {
            ASSERT_EQ(scanned->get_value(r, c), fetched->get_value(r, c))
                << "row " << r << " " << cols[c];
        }
    }
    EXPECT_TRUE(scanned->is_null(7, 6));
    EXPECT_EQ(scanned->get_string(10005, 7), "a rather long text, sample 10005");
}

TEST(ResultScan, LeavesCastsToFetch) {
    TempDir dir;
    DuckSession db;
    const std::string path = write_table(db, dir);
    EXPECT_FALSE(ResultTable::scan_parquet(db, path, {"n64", "list_col"}));
    EXPECT_FALSE(ResultTable::scan_parquet(db, path, {"day"}));
    // A file with a column named file_row_number cannot number its rows: the query path reads it.
    const std::string named = (dir / "named.parquet").string();
    db.exec("COPY (SELECT 1::BIGINT AS file_row_number, 2::BIGINT AS x) TO " +
            quote_literal(named) + " (FORMAT parquet)");
    EXPECT_FALSE(ResultTable::scan_parquet(db, named, {"x"}));
    // After a refused scan the session still scans.
    auto t = ResultTable::scan_parquet(db, path, {"n64"});
    ASSERT_TRUE(t);
    EXPECT_EQ(t->get_int(10006, 0), 10006);
}

TEST(ResultScan, ReportsWhatCannotBeRead) {
    TempDir dir;
    DuckSession db;
    const std::string path = write_table(db, dir);
    const std::string unknown = taco::test::error_of<QueryError>([&] {
        ResultTable::scan_parquet(db, path, {"n64", "no_such_column"});
    });
    EXPECT_TRUE(taco::test::contains(unknown, "no_such_column")) << unknown;
    const std::string missing = taco::test::error_of<QueryError>(
        [&] { ResultTable::scan_parquet(db, (dir / "missing.parquet").string(), {"n64"}); });
    EXPECT_TRUE(taco::test::contains(missing, "missing.parquet")) << missing;
    // Bytes that are not Parquet: one attempt, one error (a FIFO would be read once).
    const std::string junk = (dir / "junk.parquet").string();
    { std::ofstream(junk) << "not parquet at all"; }
    EXPECT_THROW(ResultTable::scan_parquet(db, junk, {"n64"}), QueryError);
}

TEST(ResultScan, TheCollectFunctionIsNotForUsers) {
    TempDir dir;
    DuckSession db;
    const std::string path = write_table(db, dir);
    ASSERT_TRUE(ResultTable::scan_parquet(db, path, {"n64"}));  // registers it
    try {
        db.exec("SELECT __taco_collect(1)");
        FAIL() << "expected an error";
    } catch (const QueryError& e) {
        EXPECT_TRUE(taco::test::contains(e.what(), "internal to tacocore")) << e.what();
    }
}

TEST(ResultScan, EmptyFile) {
    TempDir dir;
    DuckSession db;
    const std::string path = (dir / "empty.parquet").string();
    db.exec("COPY (SELECT 1::BIGINT AS a, 'x' AS b WHERE false) TO " + quote_literal(path) +
            " (FORMAT parquet)");
    auto t = ResultTable::scan_parquet(db, path, {"a", "b"});
    ASSERT_TRUE(t);
    EXPECT_EQ(t->rows(), 0u);
    EXPECT_EQ(t->columns(), 2u);
}

}  // namespace
