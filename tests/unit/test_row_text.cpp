// `taco sql --csv/--json` rows and table cells (tools/taco/text/row_text.*): the text written in
// place from the typed getters is, byte for byte, what printing each cell through value_to_text /
// value_to_json gives, for every column type and the values that need care (NULLs, NaN and
// infinities, -0.0, float32, long and old timestamps, quotes, commas, line breaks, control
// characters and UTF-8 in text, bytes, nested values, repeated column names).
#include <gtest/gtest.h>

#include "reader_test_util.hpp"
#include "text/row_text.hpp"
#include "text/value_text.hpp"

using namespace taco;
using namespace taco::test;

namespace {

// The query's rows, as data_raw() hands them to the command line.
DataFrame edge_rows() {
    return load(kFlatZip)
        .sql(R"sql(
SELECT i32, i64, b, f32, f64, ts, tstz, day, s, bytes, lst, st, mp, dec, i32 AS "we""ird, name"
FROM (VALUES
  (1::INTEGER, 9223372036854775807::BIGINT, true, 1.5::FLOAT, 0.1::DOUBLE,
   TIMESTAMP '2024-02-29 12:34:56.789012', TIMESTAMPTZ '1969-07-20 20:17:40+00',
   DATE '2024-02-29', 'plain', '\x00\xff'::BLOB, [1, NULL, 3], {'a': 1, 'b': 'x'},
   MAP {'k': 1}, 12.345::DECIMAL(10, 3)),
  (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  ((-2147483648)::INTEGER, (-9223372036854775808)::BIGINT, false, 'nan'::FLOAT, 'inf'::DOUBLE,
   TIMESTAMP '1600-03-01 00:00:00', TIMESTAMPTZ '9999-12-31 23:59:59.999999+00',
   DATE '1900-01-01', 'a,b"c' || chr(10) || 'd', ''::BLOB, [], {'a': NULL, 'b': 'q"'},
   MAP {}, -0.5::DECIMAL(10, 3)),
  (0::INTEGER, 0::BIGINT, true, '-inf'::FLOAT, -0.0::DOUBLE,
   TIMESTAMP '1970-01-01 00:00:00', TIMESTAMPTZ '1969-12-31 23:59:59.999999+00',
   DATE '1969-12-31', 'tab' || chr(9) || 'ctl' || chr(1) || 'del' || chr(127) || ' back\slash',
   'abc'::BLOB, [7], {'a': 2, 'b': NULL}, MAP {'z': NULL}, 0::DECIMAL(10, 3)),
  (7::INTEGER, 1::BIGINT, false, 3.4028235e38::FLOAT, 1e20::DOUBLE,
   TIMESTAMP '2023-01-01 00:00:00', TIMESTAMPTZ '2023-01-01 00:00:00.5+00',
   DATE '2000-02-29', 'café ☃ 😀', 'x'::BLOB, NULL, NULL, NULL, NULL),
  (8::INTEGER, 2::BIGINT, true, 1e-7::FLOAT, 5e-324::DOUBLE, NULL, NULL, NULL, '', NULL, NULL,
   NULL, NULL, NULL),
  (9::INTEGER, 3::BIGINT, true, 45.2::FLOAT, 123456789.125::DOUBLE, NULL, NULL, NULL, '"',
   NULL, NULL, NULL, NULL, NULL)
) t(i32, i64, b, f32, f64, ts, tstz, day, s, bytes, lst, st, mp, dec)
)sql")
        .data_raw();
}

// Each cell through a Value, as the command line printed rows before RowText.
std::string csv_by_values(const DataFrame& df, size_t r) {
    std::string line;
    for (size_t c = 0; c < df.columns(); ++c) {
        if (c) line += ',';
        if (!df.is_null(r, c)) cli::append_csv_field(line, cli::value_to_text(df.value(r, c)));
    }
    return line + "\n";
}

// Each cell through append_value_json (the JSON text of one Value), in an object.
std::string json_by_values(const DataFrame& df, size_t r) {
    const std::vector<std::string> labels = cli::json_labels(df);
    std::string row = "{";
    for (size_t c = 0; c < df.columns(); ++c) {
        if (c) row += ',';
        row += cli::Json(labels[c]).dump(-1, ' ', false, cli::Json::error_handler_t::replace);
        row += ':';
        cli::append_value_json(row, df.value(r, c));
    }
    return row + "}";
}

}  // namespace

TEST(RowText, CsvRowsAreWhatEachValuePrints) {
    const DataFrame df = edge_rows();
    ASSERT_EQ(df.rows(), 7u);
    const cli::RowText rows(df);
    for (size_t r = 0; r < df.rows(); ++r) {
        std::string line;
        rows.append_csv(line, r);
        EXPECT_EQ(line, csv_by_values(df, r)) << "row " << r;
    }
}

TEST(RowText, JsonRowsAreWhatEachValuePrints) {
    const DataFrame df = edge_rows();
    const cli::RowText rows(df);
    for (size_t r = 0; r < df.rows(); ++r) {
        std::string object;
        rows.append_json(object, r);
        EXPECT_EQ(object, json_by_values(df, r)) << "row " << r;
        EXPECT_TRUE(cli::Json::accept(object)) << object;
    }
}

TEST(RowText, TableCellsAreWhatEachValuePrints) {
    const DataFrame df = edge_rows();
    const cli::RowText rows(df);
    for (size_t r = 0; r < df.rows(); ++r) {
        for (size_t c = 0; c < df.columns(); ++c) {
            std::string text = "kept:";  // appended to, never replaced
            rows.append_text(text, r, c);
            EXPECT_EQ(text, "kept:" + cli::value_to_text(df.value(r, c))) << r << ", " << c;
        }
    }
}

TEST(RowText, KnownCellsHaveTheirDocumentedText) {
    // Not only equal to the Value path: the texts output.hpp promises.
    const DataFrame df = edge_rows();
    const cli::RowText rows(df);
    std::string csv;
    rows.append_csv(csv, 0);
    EXPECT_EQ(csv,
              "1,9223372036854775807,true,1.5,0.1,2024-02-29T12:34:56.789012Z,"
              "1969-07-20T20:17:40Z,2024-02-29,plain,00ff,\"[1,null,3]\","
              "\"{\"\"a\"\":1,\"\"b\"\":\"\"x\"\"}\",\"{\"\"k\"\":1}\",12.345,1\n");
    std::string empty;
    rows.append_csv(empty, 1);
    EXPECT_EQ(empty, std::string(14, ',') + "\n");  // 15 columns, every one NULL
    std::string json;
    rows.append_json(json, 2);
    EXPECT_EQ(
        json,
        "{\"i32\":-2147483648,\"i64\":-9223372036854775808,\"b\":false,\"f32\":null,"
        "\"f64\":null,\"ts\":\"1600-03-01T00:00:00Z\",\"tstz\":\"9999-12-31T23:59:59.999999Z\","
        "\"day\":\"1900-01-01\",\"s\":\"a,b\\\"c\\nd\",\"bytes\":\"\",\"lst\":[],"
        "\"st\":{\"a\":null,\"b\":\"q\\\"\"},\"mp\":{},\"dec\":-0.500,\"we\\\"ird, "
        "name\":-2147483648}");
    std::string floats;
    rows.append_json(floats, 4);
    EXPECT_NE(floats.find("\"f32\":3.4028235e+38,\"f64\":1e+20"), std::string::npos) << floats;
    std::string small;
    rows.append_csv(small, 6);
    EXPECT_EQ(small.substr(0, 20), "9,3,true,45.2,123456");
}

// Decimals print as their exact digits, a JSON number at any depth: a column never mixes numbers
// and strings (a uint64 column is decimal(20, 0): 3 and 18446744073709551615 alike), and no
// digit is rounded away, as DuckDB's and PostgreSQL's JSON give them.
TEST(RowText, DecimalsAreExactJsonNumbersAtAnyDepth) {
    const DataFrame df =
        load(kFlatZip)
            .sql(
                "SELECT * FROM (VALUES (3::DECIMAL(20, 0), -0.25::DECIMAL(15, 2), "
                "[1.5::DECIMAL(38, 10)], {'d': 0.5::DECIMAL(3, 1)}), "
                "(18446744073709551615::DECIMAL(20, 0), 1234567890123.45::DECIMAL(15, 2), "
                "[]::DECIMAL(38, 10)[], NULL)) t(u64, narrow, lst, st)")
            .data_raw();
    ASSERT_EQ(df.rows(), 2u);
    const cli::RowText rows(df);
    std::string first, second;
    rows.append_json(first, 0);
    rows.append_json(second, 1);
    EXPECT_EQ(first, R"({"u64":3,"narrow":-0.25,"lst":[1.5000000000],"st":{"d":0.5}})");
    EXPECT_EQ(second,
              R"({"u64":18446744073709551615,"narrow":1234567890123.45,"lst":[],"st":null})");
    EXPECT_TRUE(cli::Json::accept(first) && cli::Json::accept(second));
    std::string csv;
    rows.append_csv(csv, 0);
    EXPECT_EQ(csv, "3,-0.25,[1.5000000000],\"{\"\"d\"\":0.5}\"\n");
}

TEST(RowText, NonFiniteFloatsInsideNestedValues) {
    // Tables and CSV spell NaN and the infinities at any depth, as they do a top-level cell:
    // JSON's null would read as a missing value. --json keeps null (JSON has no other spelling).
    const DataFrame df =
        load(kFlatZip)
            .sql(
                "SELECT [1.0, 'nan'::DOUBLE, '-inf'::DOUBLE, NULL] AS l, {'a': 'inf'::FLOAT} AS s, "
                "MAP {'k': 'nan'::DOUBLE} AS m, [[2.5, 'inf'::DOUBLE]] AS ll LIMIT 1")
            .data_raw();
    EXPECT_EQ(cli::value_to_text(df.value(0, 0)), "[1.0,NaN,-Infinity,null]");
    EXPECT_EQ(cli::value_to_text(df.value(0, 1)), "{\"a\":Infinity}");
    EXPECT_EQ(cli::value_to_text(df.value(0, 2)), "{\"k\":NaN}");
    EXPECT_EQ(cli::value_to_text(df.value(0, 3)), "[[2.5,Infinity]]");
    std::string json;
    cli::append_value_json(json, df.value(0, 0));
    EXPECT_EQ(json, "[1.0,null,null,null]");
}
