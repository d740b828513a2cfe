// Dataset::sql: `data` bound through a CTE for every spelling, chaining, laziness, and query
// errors (REFERENCE-API §A8, §A20.1).
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "query/sql_compose.hpp"
#include "reader_test_util.hpp"

using namespace taco;
using namespace taco::test;
using taco::query::bind_data_view;

namespace {

std::vector<std::string> ids_of(const DataFrame& df) {
    std::vector<std::string> out;
    const size_t col = *df.column_index("id");
    for (size_t r = 0; r < df.rows(); ++r) out.emplace_back(df.get_string(r, col));
    return out;
}

TEST(SqlCompose, WrapsPlainQueries) {
    EXPECT_EQ(bind_data_view("SELECT * FROM level0", "SELECT id FROM data"),
              "WITH data AS (SELECT * FROM level0) SELECT id FROM data");
    EXPECT_EQ(bind_data_view("V", "  from data where x; ;  "),
              "WITH data AS (V)   from data where x");
}

TEST(SqlCompose, MergesIntoTheUsersWithClause) {
    EXPECT_EQ(bind_data_view("V", "WITH a AS (SELECT 1) SELECT * FROM a, data"),
              "WITH data AS (V), a AS (SELECT 1) SELECT * FROM a, data");
    EXPECT_EQ(bind_data_view("V", "with recursive r(n) AS (SELECT 1) SELECT * FROM r"),
              "with recursive data AS (V), r(n) AS (SELECT 1) SELECT * FROM r");
    // The user's own `data` wins.
    const std::string own = "WITH x AS (SELECT 1), \"data\" AS (SELECT 2) SELECT * FROM data";
    EXPECT_EQ(bind_data_view("V", own), own);
}

TEST(SqlCompose, WrapsDescribeAndSummarize) {
    EXPECT_EQ(bind_data_view("V", "SUMMARIZE data"),
              "WITH data AS (V) SELECT * FROM (SUMMARIZE data)");
    EXPECT_EQ(bind_data_view("V", "describe select * from data"),
              "WITH data AS (V) SELECT * FROM (describe select * from data)");
}

TEST(SqlCompose, DropsTrailingCommentsSoChainingStaysValid) {
    EXPECT_EQ(bind_data_view("V", "SELECT 1 -- note"), "WITH data AS (V) SELECT 1");
    EXPECT_EQ(bind_data_view("V", "SELECT ';' /* ; */ ; -- x"), "WITH data AS (V) SELECT ';'");
}

TEST(SqlCompose, RejectsEmptyAndMultipleStatements) {
    EXPECT_TRUE(
        contains(error_of<QueryError>([] { bind_data_view("V", "  -- nothing\n"); }), "empty"));
    EXPECT_TRUE(contains(error_of<QueryError>([] { bind_data_view("V", "SELECT 1; SELECT 2"); }),
                         "one SQL statement"));
}

// PRAGMA, SET, CALL, INSTALL, ... wrapped in a WITH were DuckDB's "syntax error at or near".
TEST(SqlCompose, NamesAStatementThatIsNoQuery) {
    for (const char* q : {"PRAGMA table_info('data')", "set threads = 1", "CALL pragma_version()",
                          "INSTALL spatial", "CREATE TABLE x AS SELECT 1"}) {
        const std::string e = error_of<QueryError>([&] { bind_data_view("V", q); });
        EXPECT_TRUE(contains(e, "sql() runs a query")) << e;
        EXPECT_TRUE(contains(e, "not a ")) << e;
    }
    EXPECT_TRUE(contains(error_of<QueryError>([] { bind_data_view("V", "pragma x"); }),
                         "not a PRAGMA statement"));
    EXPECT_EQ(bind_data_view("V", "(SELECT 1)"), "WITH data AS (V) (SELECT 1)");
    EXPECT_EQ(bind_data_view("V", "TABLE data"), "WITH data AS (V) TABLE data");
}

TEST(SqlCompose, ExplainStaysOutsideTheBinding) {
    EXPECT_EQ(bind_data_view("V", "EXPLAIN SELECT id FROM data"),
              "EXPLAIN WITH data AS (V) SELECT id FROM data");
    EXPECT_EQ(bind_data_view("V", "explain analyze with a AS (SELECT 1) SELECT * FROM a, data;"),
              "explain analyze with data AS (V), a AS (SELECT 1) SELECT * FROM a, data");
    // An options group is kept; a parenthesised query is the statement itself.
    EXPECT_EQ(bind_data_view("V", "EXPLAIN (FORMAT json) FROM data"),
              "EXPLAIN (FORMAT json) WITH data AS (V) FROM data");
    EXPECT_EQ(bind_data_view("V", "EXPLAIN (SELECT 1)"), "EXPLAIN WITH data AS (V) (SELECT 1)");
    EXPECT_TRUE(query::is_explain("  -- plan\n explain select 1"));
    EXPECT_FALSE(query::is_explain("SELECT 'EXPLAIN'"));
    EXPECT_TRUE(contains(error_of<QueryError>([] { bind_data_view("V", "EXPLAIN ANALYZE"); }),
                         "needs a statement"));
}

TEST(DatasetSql, ExplainGivesThePlanWithoutInternalSql) {
    const Dataset ds = load(kFlatZip);
    const Dataset filtered = ds.sql("SELECT * FROM data WHERE cloud_cover >= 30");
    for (const std::string q : {"EXPLAIN SELECT id FROM data WHERE id <> 'x'",
                                "EXPLAIN ANALYZE SELECT id FROM data WHERE id <> 'x'",
                                "EXPLAIN ANALYZE SELECT \"l0:id\" FROM l0"}) {
        SCOPED_TRACE(q);
        const Dataset plan = filtered.sql(q);
        const DataFrame df = plan.data();
        ASSERT_EQ(df.rows(), 1u);
        ASSERT_EQ(df.columns(), 2u);
        EXPECT_EQ(df.schema()[0].name, "explain_key");
        EXPECT_EQ(df.schema()[1].name, "explain_value");
        const std::string text(df.get_string(0, 1));
        EXPECT_TRUE(contains(text, "READ_PARQUET")) << text;
        EXPECT_FALSE(contains(text, "WITH data AS")) << text;
        EXPECT_FALSE(contains(text, "/proc/self/fd")) << text;
        EXPECT_EQ(plan.count(), 1u);
        EXPECT_EQ(plan.columns().size(), 2u);
        if (q.find("ANALYZE") != std::string::npos) {
            // The profile echoes the statement it ran: the user sees their own.
            EXPECT_TRUE(contains(text, q)) << text;
            EXPECT_EQ(df.get_string(0, 0), "analyzed_plan");
        }
    }
    // A plan is not a table: chaining on it says so instead of a syntax error.
    const std::string msg =
        error_of<QueryError>([&] { ds.sql("EXPLAIN SELECT 1").sql("SELECT * FROM data"); });
    EXPECT_TRUE(contains(msg, "EXPLAIN is a query plan")) << msg;
    // Errors in the explained statement read as for the statement alone.
    const std::string bad =
        error_of<QueryError>([&] { ds.sql("EXPLAIN SELECT nope FROM data").data(); });
    EXPECT_TRUE(contains(bad, "nope")) << bad;
    EXPECT_FALSE(contains(bad, "WITH data AS")) << bad;
}

TEST(DatasetSql, InterruptStopsARunningQueryAndLeavesTheSessionUsable) {
    const Dataset ds = load(kFlatZip);
    ds.interrupt();  // nothing runs: no effect on the next query
    EXPECT_EQ(ds.count(), 5u);
    const Dataset runaway = ds.sql("SELECT sum(hash(i)) AS s FROM range(1000000000000) t(i)");
    std::thread stopper([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        ds.interrupt();  // any view of the same load shares the session
    });
    const std::string msg = error_of<QueryError>([&] { runaway.data(); });
    stopper.join();
    EXPECT_TRUE(contains(msg, "Interrupt")) << msg;
    EXPECT_EQ(ds.count(), 5u);
}

TEST(DatasetSql, EverySpellingOfDataIsTheCurrentView) {
    const Dataset ds = load(kFlatZip);
    const Dataset filtered = ds.sql("SELECT * FROM data WHERE cloud_cover >= 30");
    EXPECT_EQ(filtered.count(), 3u);
    // Each of these would read the unfiltered view under tacoreader's text replacement.
    for (const char* q :
         {"select * from data", "SELECT * FROM  data",
          "SELECT d.* FROM level0 x JOIN data d USING (id)", "SELECT * FROM (SELECT * FROM data) t",
          "WITH t AS (SELECT * FROM data) SELECT * FROM t", "FROM data", "SELECT * FROM \"data\"",
          "SELECT * FROM data WHERE id IN (SELECT id FROM data)"}) {
        SCOPED_TRACE(q);
        EXPECT_EQ(filtered.sql(q).count(), 3u);
    }
}

TEST(DatasetSql, LeavesOtherIdentifiersAndLiteralsAlone) {
    const Dataset ds = load(kFlatZip);
    const DataFrame df =
        ds.sql("SELECT 'FROM data' AS \"data_x\", id FROM data ORDER BY id LIMIT 1").data();
    ASSERT_EQ(df.rows(), 1u);
    EXPECT_EQ(df.schema()[0].name, "data_x");
    EXPECT_EQ(df.get_string(0, 0), "FROM data");
}

TEST(DatasetSql, ChainsAndKeepsLevelViewsReachable) {
    const Dataset ds = load(kNestedZip);
    const Dataset a = ds.sql("SELECT * FROM data WHERE id <> 'asia' -- drop asia");
    const Dataset b = a.sql("SELECT * FROM data WHERE id <> 'americas'");
    EXPECT_EQ(ids_of(b.data()), std::vector<std::string>{"europe"});
    const Dataset joined = b.sql(
        "SELECT l1.id, l1.\"internal:relative_path\" AS rel FROM data d JOIN level1 l1 "
        "ON l1.\"internal:parent_id\" = d.\"internal:current_id\" ORDER BY l1.id");
    const DataFrame df = joined.data_raw();
    ASSERT_EQ(df.rows(), 3u);
    EXPECT_EQ(df.get_string(0, 1), "europe/item_0");
}

TEST(DatasetSql, IsLazyUntilRowsAreAskedFor) {
    const Dataset ds = load(kFlatZip);
    const Dataset bad = ds.sql("SELECT id, no_such_column FROM data");  // nothing runs here
    const std::string msg = error_of<QueryError>([&] { bad.data(); });
    EXPECT_TRUE(contains(msg, "no_such_column")) << msg;
    EXPECT_TRUE(contains(msg, "Binder Error")) << msg;
    EXPECT_TRUE(contains(msg, "flat.tacozip")) << msg;
    EXPECT_TRUE(contains(error_of<QueryError>([&] { bad.columns(); }), "no_such_column"));
    EXPECT_TRUE(contains(error_of<QueryError>([&] { bad.count(); }), "no_such_column"));
    EXPECT_TRUE(contains(error_of<QueryError>([&] { ds.sql("SELEC 1").data(); }), "syntax error"));
}

TEST(DatasetSql, ColumnsWithoutRunning) {
    const Dataset ds = load(kFlatZip);
    const auto cols =
        ds.sql("SELECT id, cloud_cover * 2 AS c2, \"stac:tensor_shape\" FROM data").columns();
    ASSERT_EQ(cols.size(), 3u);
    EXPECT_EQ(cols[1].name, "c2");
    EXPECT_EQ(cols[1].type, DataType::float64());
    EXPECT_EQ(cols[2].type, DataType::list(DataType::int64()));
}

TEST(DatasetSql, TypesWithoutTacoEquivalentAreConvertedOthersKept) {
    const Dataset ds = load(kFlatZip);
    const DataFrame df =
        ds.sql(
              "SELECT sum(cloud_cover::INTEGER) AS s, 1.5 AS dec, DATE '2024-02-03' AS d, "
              "{'a': 1} AS st, [1, 2]::TINYINT[2] AS arr, NULL AS n, TIME '10:00' AS t FROM data")
            .data();
    ASSERT_EQ(df.rows(), 1u);
    EXPECT_EQ(df.schema()[0].type, DataType::int64());  // HUGEINT: converted
    EXPECT_EQ(df.get_int(0, 0), 150);
    // Decimals, dates, structs and fixed-size lists are TACO types now (issue 18): kept.
    EXPECT_EQ(df.schema()[1].type, DataType::decimal(2, 1));
    EXPECT_EQ(df.value(0, 1).as_string(), "1.5");
    EXPECT_EQ(df.schema()[2].type, DataType::date());
    EXPECT_EQ(df.get_int(0, 2), 19756);  // days since 1970-01-01
    EXPECT_EQ(df.schema()[3].type, DataType::structure({{"a", DataType::int32()}}));
    EXPECT_EQ(df.value(0, 3), Value::structure({{"a", Value::int32(1)}}));
    EXPECT_EQ(df.value(0, 4), Value::fixed_list(DataType::fixed_list(DataType::int32(), 2),
                                                {Value::int32(1), Value::int32(2)}));
    EXPECT_TRUE(df.is_null(0, 5));
    EXPECT_EQ(df.get_string(0, 6), "10:00:00");  // TIME: its text
}

TEST(DatasetSql, RepeatedColumnNamesSurvive) {
    const Dataset ds = load(kFlatZip);
    const DataFrame df =
        ds.sql("SELECT a.id, b.id, a.\"internal:offset\" FROM data a JOIN data b USING (id)")
            .data();
    ASSERT_EQ(df.columns(), 2u);  // data() drops internal:offset, the two ids stay
    EXPECT_EQ(df.schema()[0].name, "id");
    EXPECT_EQ(df.schema()[1].name, "id");
}

TEST(DatasetSql, LevelViewsHidePaddingAndAddGdalVsi) {
    TempDir dir;
    create(deep_taco(3, 4), dir / "deep.tacozip");
    const Dataset ds = load(dir / "deep.tacozip");
    EXPECT_EQ(ds.count(), 3u);           // level 0 padded to 4
    EXPECT_EQ(ds.level(1).count(), 6u);  // each tile: 2 sensors + 2 padding
    EXPECT_EQ(ds.level(2).count(), 18u);
    EXPECT_EQ(ds.sql("SELECT * FROM level2_table").count(), 24u);
    EXPECT_EQ(ds.sql("SELECT * FROM data WHERE id LIKE '__TACOPAD__%'").count(), 0u);
    EXPECT_TRUE(contains(error_of<NavigationError>([&] { ds.level(3); }), "levels 0..2"));
}

TEST(DatasetSql, DataDropsInternalColumnsButDataRawKeepsThem) {
    const Dataset ds = load(kNestedZip);
    const DataFrame data = ds.data();
    EXPECT_FALSE(data.has_column("internal:offset"));
    EXPECT_FALSE(data.has_column("internal:current_id"));
    EXPECT_TRUE(data.has_column("internal:gdal_vsi"));
    const DataFrame raw = ds.data_raw();
    EXPECT_TRUE(raw.has_column("internal:offset"));
    EXPECT_TRUE(raw.has_column("internal:parent_id"));
    EXPECT_EQ(raw.columns(), data.columns() + 4);
    const DataFrame only_internal = ds.sql("SELECT \"internal:offset\" FROM data").data();
    EXPECT_EQ(only_internal.columns(), 0u);
    EXPECT_EQ(only_internal.rows(), 3u);
}

// data() of a level view is built without SQL expressions (ResultTable::derive); it must give
// exactly what the SQL view gives.
void expect_same_frames(const DataFrame& a, const DataFrame& b) {
    ASSERT_EQ(a.rows(), b.rows());
    ASSERT_EQ(a.schema(), b.schema());
    for (size_t r = 0; r < a.rows(); ++r)
        for (size_t c = 0; c < a.columns(); ++c)
            ASSERT_EQ(a.value(r, c), b.value(r, c)) << "row " << r << " col " << c;
}

TEST(DatasetSql, LevelDataEqualsTheSqlView) {
    TempDir dir;
    const Taco padded = deep_taco(3, 4);
    create(padded, dir / "deep.tacozip");
    create(padded, dir / "deep_folder");
    std::vector<std::string> paths = all_fixtures();
    paths.push_back((dir / "deep.tacozip").string());
    paths.push_back((dir / "deep_folder").string());
    for (const auto& path : paths) {
        SCOPED_TRACE(path);
        const Dataset ds = load(path);
        for (size_t i = 0; i < ds.level_count(); ++i) {
            const std::string view = "SELECT * FROM level" + std::to_string(i);
            expect_same_frames(ds.level(i).data(), ds.sql(view).data());
            expect_same_frames(ds.level(i).data_raw(), ds.sql(view).data_raw());
        }
        expect_same_frames(ds.data(), ds.sql("SELECT * FROM data").data());
    }
}

}  // namespace
