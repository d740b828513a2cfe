// UdfArgs reads DuckDB's vectors directly (validity bits, duckdb_string_t inline up to 12 bytes,
// a pointer beyond): every length around the inline limit, NULLs anywhere in a chunk, and chunks
// past the first 64-row validity word come through exactly as SQL gave them.
#include <gtest/gtest.h>

#include <string>

#include "metadata/duckdb_session.hpp"
#include "metadata/scalar_udf.hpp"

using namespace taco::metadata;

namespace {

TEST(ScalarUdf, StringsOfEveryLengthAndNullsArriveExactly) {
    DuckSession db;
    // udf_check(s, n, d): s is n copies of 'a'..'z' cycling and d == n / 2; NULL s -> NULL.
    register_bool_function(db, "udf_check", {UdfType::Varchar, UdfType::BigInt, UdfType::Double},
                           [](const UdfArgs& args, std::vector<uint8_t>& out) {
                               for (size_t r = 0; r < args.rows(); ++r) {
                                   if (args.is_null(0, r)) continue;  // stays 2: NULL
                                   const std::string_view s = args.get_string(0, r);
                                   const int64_t n = args.get_int(1, r);
                                   bool ok = static_cast<int64_t>(s.size()) == n &&
                                             args.get_double(2, r) == n / 2.0;
                                   for (size_t i = 0; ok && i < s.size(); ++i)
                                       ok = s[i] == char('a' + i % 26);
                                   out[r] = ok ? 1 : 0;
                               }
                           });
    // 5,000 rows (three chunks): lengths 0..99 cycling, every 7th string NULL.
    const std::string rows =
        "SELECT CASE WHEN i % 7 = 3 THEN NULL ELSE "
        "left(repeat('abcdefghijklmnopqrstuvwxyz', 4), CAST(i % 100 AS INTEGER)) END "
        "AS s, i % 100 AS n, (i % 100) / 2.0 AS d FROM range(5000) r(i)";
    EXPECT_EQ(db.query_scalar("SELECT count(*) FROM (" + rows + ") WHERE udf_check(s, n, d)"),
              "4286");
    EXPECT_EQ(
        db.query_scalar("SELECT count(*) FROM (" + rows + ") WHERE udf_check(s, n, d) IS NULL"),
        "714");
    EXPECT_EQ(
        db.query_scalar("SELECT count(*) FROM (" + rows + ") WHERE NOT udf_check(s, n + 1, d)"),
        "4286");
}

}  // namespace
