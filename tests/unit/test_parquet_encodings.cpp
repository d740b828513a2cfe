// Which Parquet encodings DuckSession::write_parquet chooses: V2 value encodings for tables
// without int32 columns (smaller, faster to decode), V1 for tables with one (pyarrow rejects
// DuckDB's V2 pages of int32 columns whose neighbouring values differ by more than 2^31-1).
#include <gtest/gtest.h>

#include "metadata/duckdb_session.hpp"
#include "metadata/result_table.hpp"
#include "test_util.hpp"

using namespace taco;
using namespace taco::metadata;
using taco::test::TempDir;

namespace {

// The encodings DuckDB reports for column `column` of the Parquet file at `path`.
std::string encodings_of(DuckSession& db, const std::string& path, const std::string& column) {
    return db.query_scalar("SELECT string_agg(DISTINCT encodings, ';') FROM parquet_metadata(" +
                           quote_literal(path) +
                           ") WHERE path_in_schema = " + quote_literal(column));
}

TEST(ParquetEncodings, IntegerSequencesAreDeltaEncodedWithoutInt32Columns) {
    TempDir dir;
    DuckSession db;
    std::vector<int64_t> offsets;
    std::vector<std::string> ids;
    for (int64_t i = 0; i < 5000; ++i) {
        offsets.push_back(200 + 4096 * i);
        ids.push_back("sample_" + std::to_string(i));
    }
    std::vector<std::string_view> id_views(ids.begin(), ids.end());
    const std::string path = (dir / "level0.parquet").string();
    db.write_parquet({TableColumn::of_strings("id", id_views),
                      TableColumn::of_int64("internal:offset", offsets)},
                     path, ParquetOptions{});
    EXPECT_EQ(encodings_of(db, path, "internal:offset"), "DELTA_BINARY_PACKED");
    auto t = ResultTable::scan_parquet(db, path, {"id", "internal:offset"});
    ASSERT_TRUE(t);
    EXPECT_EQ(t->get_string(4999, 0), "sample_4999");
    EXPECT_EQ(t->get_int(4999, 1), 200 + 4096 * 4999);
}

TEST(ParquetEncodings, TablesWithAnInt32ColumnKeepV1Encodings) {
    TempDir dir;
    DuckSession db;
    const Value low = Value::int32(-2147483647 - 1), high = Value::int32(2147483647);
    std::vector<const Value*> cells = {&low, &high, &low};
    const std::string path = (dir / "t.parquet").string();
    db.write_parquet({TableColumn::of_values("v", DataType::int32(), cells),
                      TableColumn::of_int64("n", {1, 2, 3})},
                     path, ParquetOptions{});
    EXPECT_EQ(encodings_of(db, path, "v").find("DELTA"), std::string::npos)
        << encodings_of(db, path, "v");
    EXPECT_EQ(encodings_of(db, path, "n").find("DELTA"), std::string::npos);
}

}  // namespace
