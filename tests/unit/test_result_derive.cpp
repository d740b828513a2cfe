// ResultTable::derive leaves out the rows HiddenRows names, exactly as the level views' SQL
// filter does (`NOT starts_with(id, '__TACOPAD__')`, NULL ids dropped), whatever the chunk holds:
// no hidden row, only hidden rows, NULLs, strings sharing the first 4 bytes, short strings.
#include <gtest/gtest.h>

#include "metadata/duckdb_session.hpp"
#include "metadata/result_table.hpp"

using namespace taco;
using namespace taco::metadata;

namespace {

TEST(ResultDerive, HidesTheSameRowsAsTheSqlFilter) {
    DuckSession db;
    // 10,000 rows = 5 chunks: chunk 0 has nothing to hide, chunk 1 only padding, the others a mix.
    const std::string ids =
        "SELECT i, CASE "
        "WHEN i BETWEEN 2048 AND 4095 THEN '__TACOPAD__' || i "
        "WHEN i >= 4096 AND i % 11 = 0 THEN NULL "
        "WHEN i >= 4096 AND i % 11 = 1 THEN '__TACOPAD__' || i "
        "WHEN i >= 4096 AND i % 11 = 2 THEN '__TA' "
        "WHEN i >= 4096 AND i % 11 = 3 THEN '__TACOPAD' "
        "WHEN i >= 4096 AND i % 11 = 4 THEN '__TAKEN_but_a_long_id_' || i "
        "WHEN i >= 4096 AND i % 11 = 5 THEN '__TACOPAD__' "
        "ELSE 'sample_' || i END AS id FROM range(10000) t(i)";
    auto all = ResultTable::fetch(db, ids + " ORDER BY i");
    auto derived =
        ResultTable::derive(all, {0, 1}, {1, "__TACOPAD__"}, "text",
                            [](const ResultTable::ChunkRows& rows, size_t i, std::string& out) {
                                out = "row " + std::to_string(rows.get_int(i, 0));
                                return true;
                            });
    auto expected = ResultTable::fetch(
        db, "SELECT * FROM (" + ids + ") WHERE NOT starts_with(id, '__TACOPAD__') ORDER BY i");
    ASSERT_EQ(derived->rows(), expected->rows());
    for (size_t r = 0; r < expected->rows(); ++r) {
        ASSERT_EQ(derived->get_int(r, 0), expected->get_int(r, 0)) << "row " << r;
        ASSERT_EQ(derived->get_string(r, 1), expected->get_string(r, 1));
        ASSERT_EQ(derived->get_string(r, 2), "row " + std::to_string(expected->get_int(r, 0)));
    }
    // The padding chunk is gone; row 4096 (4096 % 11 == 4) is a long id sharing "__TA", kept.
    EXPECT_EQ(derived->get_int(2048, 0), 4096);
}

}  // namespace
