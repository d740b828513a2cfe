// The flat views l0..lN (tacoreader 2.4.x): names, column order, joins along parent ids, and
// their re-binding to a filtered view by Dataset::sql. The row-level cases against the
// reference live in tests/python/sql_cases/flat_views.test.
#include <gtest/gtest.h>

#include "query/flat_views.hpp"
#include "query/sql_compose.hpp"
#include "reader_test_util.hpp"

using namespace taco;
using namespace taco::test;

namespace {

std::vector<ColumnType> columns(std::initializer_list<const char*> names) {
    std::vector<ColumnType> out;
    for (const char* n : names) out.push_back({n, DataType::string()});
    return out;
}

std::vector<std::string> strings(const DataFrame& df, size_t col) {
    std::vector<std::string> out;
    for (size_t r = 0; r < df.rows(); ++r) out.emplace_back(df.get_string(r, col));
    return out;
}

TEST(FlatViews, RecognisesFlatViewNamesOnly) {
    using query::names_flat_view;
    EXPECT_TRUE(names_flat_view("SELECT * FROM l0"));
    EXPECT_TRUE(names_flat_view("select * from L12 where x"));
    EXPECT_TRUE(names_flat_view("SELECT * FROM \"l1\""));
    EXPECT_FALSE(names_flat_view("SELECT * FROM level1"));
    EXPECT_FALSE(names_flat_view("SELECT 'l1' FROM data"));
    EXPECT_FALSE(names_flat_view("SELECT \"l1:id\" FROM data"));
    EXPECT_FALSE(names_flat_view("SELECT l FROM data -- l0"));
}

TEST(FlatViews, PrefixesColumnsDeepestLevelFirstAndJoinsParents) {
    const std::vector<std::vector<ColumnType>> levels = {
        columns({"id", "internal:current_id"}),
        columns({"id", "internal:parent_id", "internal:current_id", "internal:gdal_vsi"})};
    EXPECT_EQ(query::flat_view_sql(levels, 0, "level"),
              "SELECT _l0.\"id\" AS \"l0:id\", _l0.\"internal:gdal_vsi\" AS "
              "\"l0:internal:gdal_vsi\" FROM level0 _l0");
    EXPECT_EQ(query::flat_view_sql(levels, 1, "level"),
              "SELECT _l1.\"id\" AS \"l1:id\", _l1.\"internal:gdal_vsi\" AS "
              "\"l1:internal:gdal_vsi\", _l0.\"id\" AS \"l0:id\", _l0.\"internal:gdal_vsi\" AS "
              "\"l0:internal:gdal_vsi\" FROM level1 _l1 JOIN level0 _l0 ON "
              "_l0.\"internal:current_id\" = _l1.\"internal:parent_id\"");
    // Without the join keys there is no flat view for the deeper level.
    EXPECT_EQ(query::flat_view_sql({columns({"id"}), columns({"id"})}, 1, "level"), "");
}

TEST(FlatViews, AreDefinedAtLoadAndFollowAFilter) {
    for (const std::string& path : {kNestedZip, kNestedFolder}) {
        const Dataset ds = load(path);
        const DataFrame all = ds.sql("SELECT \"l0:id\", \"l1:id\" FROM l1").data();
        EXPECT_EQ(all.rows(), 9u) << path;
        const Dataset asia = ds.sql("SELECT * FROM data WHERE id = 'asia'");
        const DataFrame kept = asia.sql("SELECT \"l0:id\", \"l1:id\" FROM l1 ORDER BY 2").data();
        EXPECT_EQ(strings(kept, 0), (std::vector<std::string>{"asia", "asia", "asia"})) << path;
        EXPECT_EQ(strings(kept, 1), (std::vector<std::string>{"item_0", "item_1", "item_2"}));
        // A view that dropped internal:current_id is matched by id; one without either key
        // is an error naming the column (never a silent correlated reference to level 0).
        const Dataset ids = ds.sql("SELECT id FROM data WHERE id = 'asia'");
        EXPECT_EQ(ids.sql("SELECT * FROM l1").count(), 3u) << path;
        const Dataset none = ds.sql("SELECT type FROM data WHERE false");
        const std::string msg = error_of<QueryError>([&] { none.sql("SELECT * FROM l1").count(); });
        EXPECT_TRUE(contains(msg, "internal:current_id")) << msg;
        // A view that does not name a flat view is composed as before.
        EXPECT_EQ(asia.sql("SELECT id FROM data").query().find("__taco_flat"), std::string::npos);
    }
}

TEST(FlatViews, OfAConcatenationPairEachChildWithItsOwnParent) {
    const Dataset both = concat({load(kNestedAZip), load(kNestedBZip)}, ColumnMode::Intersection);
    const DataFrame df = both.sql("SELECT \"l0:id\", \"l1:id\" FROM l1").data();
    EXPECT_EQ(df.rows(), 4u);  // tacoreader 2.4.21 returns 8: children paired across inputs
}

}  // namespace
