// Row ranges of one query written as small Parquet files (an export's __meta__ tables): each file
// holds the bytes a COPY of the same rows writes, for every column type DuckDB has (nested ones
// included), for ranges inside one chunk, across chunks and longer than a chunk, on one
// connection or several.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <utility>
#include <vector>

#include "metadata/parquet_slices.hpp"
#include "taco/errors.hpp"
#include "test_util.hpp"

using namespace taco;
using namespace taco::metadata;
using taco::test::TempDir;

namespace {

const std::string kOptions =
    "FORMAT parquet, COMPRESSION zstd, COMPRESSION_LEVEL 1, ROW_GROUP_SIZE 65536, "
    "USE_TMP_FILE false";

// 5,000 rows (three chunks of DuckDB's 2,048), NULLs and long strings among them, and columns of
// the types a source level table can bring.
void make_rows(DuckSession& db) {
    db.exec(
        "CREATE TEMP TABLE src AS SELECT i AS \"internal:current_id\", "
        "'id_' || i AS id, "
        "CASE WHEN i % 7 = 0 THEN NULL ELSE i * 1.5 END AS \"stac:value\", "
        "repeat('x', i % 40) AS long_text, "
        "CAST(i % 250 AS INTEGER) AS small, "
        "CAST(i AS DECIMAL(12, 3)) / 7 AS dec, "
        "TIMESTAMPTZ '2020-01-01 00:00:00+00' + to_seconds(i) AS ts, "
        "DATE '2020-01-01' + CAST(i % 900 AS INTEGER) AS day, "
        "CASE WHEN i % 5 = 0 THEN NULL ELSE range(i % 4) END AS list_col, "
        "{'a': i, 'b': 'v' || (i % 3), 'c': [i, i + 1]} AS struct_col, "
        "CASE WHEN i % 3 = 0 THEN NULL ELSE [{'k': 'q' || i, 'n': i % 2 = 0}] END AS nested, "
        "encode('blob' || i) AS raw, "
        "i % 2 = 0 AS flag "
        "FROM range(5000) t(i)");
}

const std::string kSelect =
    "SELECT * EXCLUDE (\"internal:current_id\") FROM src ORDER BY "
    "\"internal:current_id\"";

std::string read_file(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

// What a COPY of rows [begin, end) of the query writes.
std::string copied(DuckSession& db, const TempDir& dir, size_t begin, size_t end) {
    const auto path = dir / ("copy_" + std::to_string(begin) + "_" + std::to_string(end));
    db.exec(
        "COPY (SELECT * EXCLUDE (\"internal:current_id\") FROM src WHERE "
        "\"internal:current_id\" >= " +
        std::to_string(begin) + " AND \"internal:current_id\" < " + std::to_string(end) +
        " ORDER BY \"internal:current_id\") TO " + quote_literal(path.string()) + " (" + kOptions +
        ")");
    return read_file(path);
}

const std::vector<std::pair<size_t, size_t>> kRanges = {
    {0, 1},        // one row
    {3, 11},       // inside the first chunk
    {2040, 2060},  // across the first chunk's end
    {100, 4500},   // longer than a chunk, across two boundaries
    {4990, 5000},  // the last rows
    {7, 7},        // none
    {0, 5000},     // every row
};

TEST(ParquetSlices, EachRangeIsTheFileCopyWrites) {
    TempDir dir;
    DuckSession db(1);
    make_rows(db);
    ParquetSlices slices(db, kSelect, kOptions);
    ASSERT_EQ(slices.rows(), 5000u);
    for (const auto& [begin, end] : kRanges) {
        EXPECT_EQ(slices.encode(begin, end), copied(db, dir, begin, end))
            << "rows " << begin << ".." << end;
    }
}

TEST(ParquetSlices, TheFileReadsBackAsTheRows) {
    TempDir dir;
    DuckSession db(1);
    make_rows(db);
    ParquetSlices slices(db, kSelect, kOptions);
    const auto path = dir / "slice.parquet";
    const std::string bytes = slices.encode(2040, 2060);
    std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<long>(bytes.size()));
    EXPECT_EQ(db.query_scalar("SELECT count(*) FROM (SELECT * FROM read_parquet(" +
                              quote_literal(path.string()) +
                              ") EXCEPT ALL SELECT * EXCLUDE "
                              "(\"internal:current_id\") FROM src WHERE \"internal:current_id\" "
                              "BETWEEN 2040 AND 2059)"),
              "0");
    EXPECT_EQ(
        db.query_scalar("SELECT string_agg(id, ',') FROM read_parquet(" +
                        quote_literal(path.string()) + ") WHERE id IN ('id_2040', 'id_2059')"),
        "id_2040,id_2059");
}

TEST(ParquetSlices, EncodeAllHandsOverInOrderOnSeveralConnections) {
    TempDir dir;
    DuckSession db(1);
    make_rows(db);
    ParquetSlices slices(db, kSelect, kOptions);
    // 600 ranges of 1 to 13 rows: more than one batch, enough per thread for a second connection.
    std::vector<std::pair<size_t, size_t>> ranges;
    for (size_t k = 0, at = 0; k < 600; ++k) {
        const size_t n = k % 13 + 1;
        ranges.emplace_back(at, at + n);
        at = (at + n) % 4900;
    }
    std::vector<std::string> files;
    slices.encode_all(
        ranges.size(), [&](size_t k) { return ranges[k]; },
        [&](size_t k, std::string& file) {
            EXPECT_EQ(k, files.size());
            files.push_back(std::move(file));
        });
    ASSERT_EQ(files.size(), ranges.size());
    for (size_t k : {size_t{0}, size_t{1}, size_t{255}, size_t{256}, size_t{599}}) {
        EXPECT_EQ(files[k], copied(db, dir, ranges[k].first, ranges[k].second)) << "range " << k;
    }
    // The same range in two places gives the same bytes.
    EXPECT_EQ(files[0], slices.encode(ranges[0].first, ranges[0].second));
}

TEST(ParquetSlices, RefusesARangeOutsideTheRows) {
    DuckSession db(1);
    make_rows(db);
    ParquetSlices slices(db, kSelect, kOptions);
    EXPECT_THROW(slices.encode(4990, 5001), std::out_of_range);
    EXPECT_THROW(slices.encode(10, 9), std::out_of_range);
}

TEST(ParquetSlices, AQueryThatFailsIsAQueryError) {
    DuckSession db(1);
    EXPECT_THROW(ParquetSlices(db, "SELECT * FROM no_such_table", kOptions), QueryError);
}

TEST(ParquetSlices, TwoSeriesOnOneSessionEachServeTheirOwnRows) {
    TempDir dir;
    DuckSession db(1);
    make_rows(db);
    ParquetSlices first(db, "SELECT id FROM src ORDER BY \"internal:current_id\" DESC", kOptions);
    const std::string last_three = first.encode(0, 3);
    {
        ParquetSlices second(db, kSelect, kOptions);
        EXPECT_EQ(second.encode(3, 11), copied(db, dir, 3, 11));
        EXPECT_EQ(first.encode(0, 3), last_three);
        EXPECT_EQ(second.encode(3, 11), copied(db, dir, 3, 11));
    }
    EXPECT_EQ(first.encode(0, 3), last_three);
    const auto path = dir / "last_three.parquet";
    std::ofstream(path, std::ios::binary)
        .write(last_three.data(), static_cast<long>(last_three.size()));
    EXPECT_EQ(db.query_scalar("SELECT string_agg(id, ',') FROM read_parquet(" +
                              quote_literal(path.string()) + ")"),
              "id_4999,id_4998,id_4997");
}

}  // namespace
