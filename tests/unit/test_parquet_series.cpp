// A series of small Parquet files through one prepared COPY (a level's __meta__ tables): every
// file holds the bytes write_parquet writes for the same table, whatever came before it, on one
// connection or on a pool of them.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>

#include "metadata/parquet_series.hpp"
#include "taco/errors.hpp"
#include "test_util.hpp"

using namespace taco;
using namespace taco::metadata;
using taco::test::TempDir;

namespace {

// The cells of table k: k + 1 rows (so each file is longer than the one before it, then the
// series goes back to short ones), ids "t<k>_<i>" and an int64 column.
struct Table {
    std::vector<std::string> ids;
    std::vector<std::string_view> views;
    std::vector<int64_t> sizes;

    explicit Table(size_t k) {
        const size_t rows = k % 7 + 1;
        for (size_t i = 0; i < rows; ++i) {
            ids.push_back("t" + std::to_string(k) + "_" + std::to_string(i));
            sizes.push_back(static_cast<int64_t>(k * 1000 + i));
        }
        views.assign(ids.begin(), ids.end());
    }
    std::vector<TableColumn> columns() const {
        return {TableColumn::of_strings("id", views), TableColumn::of_int64("size", sizes)};
    }
};

const ParquetOptions kMeta{1, 65536};

std::string read_file(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

// What write_parquet writes for table k.
std::string written_alone(DuckSession& db, const TempDir& dir, size_t k) {
    const auto path = dir / ("alone" + std::to_string(k) + ".parquet");
    db.write_parquet(Table(k).columns(), path.string(), kMeta);
    return read_file(path);
}

// The files of a pool's encode(), in the order they were taken (which must be index order).
std::vector<std::string> encode_all(ParquetSeriesPool& pool, size_t n,
                                    const std::function<std::vector<TableColumn>(size_t)>& make) {
    std::vector<std::string> files;
    pool.encode(n, make, [&](size_t k, std::string& file) {
        EXPECT_EQ(k, files.size());
        files.push_back(std::move(file));
    });
    return files;
}

TEST(ParquetSeries, EveryFileIsTheOneWriteParquetWrites) {
    TempDir dir;
    DuckSession db(1);
    ParquetSeries series(db, kMeta);
    for (size_t k = 0; k < 12; ++k) {
        const Table t(k);
        EXPECT_EQ(series.encode(t.columns()), written_alone(db, dir, k)) << "table " << k;
    }
}

TEST(ParquetSeries, ANewSchemaIsPreparedAgain) {
    TempDir dir;
    DuckSession db(1);
    ParquetSeries series(db, kMeta);
    const Table t(3);
    series.encode(t.columns());
    std::vector<int64_t> other = {1, 2};
    const std::string file = (dir / "other.parquet").string();
    {
        std::ofstream out(file, std::ios::binary);
        out << series.encode({TableColumn::of_int64("other", other)});
    }
    EXPECT_EQ(db.query_scalar("SELECT string_agg(other::VARCHAR, ',') FROM read_parquet(" +
                              quote_literal(file) + ")"),
              "1,2");
}

TEST(StreamStatement, RefusesColumnsOfAnotherSchema) {
    DuckSession db(1);
    const Table t(2);
    DuckSession::StreamStatement stmt =
        db.prepare_with_stream("CREATE TEMP TABLE x AS SELECT * FROM taco_stream()", t.columns());
    std::vector<int64_t> ints = {1};
    EXPECT_THROW(stmt.run({TableColumn::of_int64("id", ints)}), SchemaError);
    EXPECT_FALSE(stmt.fits({TableColumn::of_int64("id", ints)}));
    EXPECT_TRUE(stmt.fits(t.columns()));
}

TEST(ParquetSeriesPool, FilesComeBackInOrderOnTwoThreads) {
    TempDir dir;
    DuckSession db(1);
    ParquetSeriesPool pool(db, kMeta, 2);
    const size_t n = 300;  // both threads, and more than one batch of ParquetSeriesPool::kBatch
    std::vector<Table> tables;
    for (size_t k = 0; k < n; ++k) tables.emplace_back(k);
    std::vector<std::string> files =
        encode_all(pool, n, [&](size_t k) { return tables[k].columns(); });
    ASSERT_EQ(files.size(), n);
    for (size_t k = 0; k < n; ++k) EXPECT_EQ(files[k], written_alone(db, dir, k)) << "table " << k;
    // A second call reuses the pool's connections.
    files = encode_all(pool, 3, [&](size_t k) { return tables[k + 10].columns(); });
    EXPECT_EQ(files[2], written_alone(db, dir, 12));
}

TEST(ParquetSeriesPool, TheFirstFailureInIndexOrderIsRethrown) {
    DuckSession db(1);
    ParquetSeriesPool pool(db, kMeta, 2);
    std::vector<Table> tables;
    for (size_t k = 0; k < 100; ++k) tables.emplace_back(k);
    try {
        encode_all(pool, 100, [&](size_t k) {
            if (k == 40 || k == 90) throw std::runtime_error("table " + std::to_string(k));
            return tables[k].columns();
        });
        FAIL() << "no exception";
    } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "table 40");
    }
    // The pool still works: every series went back to it.
    EXPECT_EQ(encode_all(pool, 100, [&](size_t k) { return tables[k].columns(); }).size(), 100u);
}

}  // namespace
