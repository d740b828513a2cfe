// concat() of many datasets (issue 18 item 13): the union of the parts' views is cut into views
// of at most 32 branches, so a thousand parts stay below DuckDB's expression depth limit (1,000)
// where one UNION ALL chain failed, and every part keeps all its rows (a streaming result of
// that plan lost some: such results are materialized).
#include <gtest/gtest.h>

#include "reader_test_util.hpp"

using namespace taco;
using namespace taco::test;

TEST(ConcatScale, EveryPartKeepsItsRows) {
    TempDir dir;
    std::vector<Sample> samples;
    samples.push_back(Sample::bytes("a", sample_bytes("a")).set("v", Value(1.5)));
    create(Taco(Tortilla(std::move(samples)), test_collection("one")), dir / "one.tacozip");
    const Dataset one = load(dir / "one.tacozip");
    for (size_t n : {2, 3, 5, 9}) {
        SCOPED_TRACE(n);
        const Dataset many = concat(std::vector<Dataset>(n, one));
        EXPECT_EQ(many.count(), n);
        EXPECT_EQ(many.data().rows(), n);
        EXPECT_EQ(many.sql("SELECT id, v FROM data").data().rows(), n);
        EXPECT_EQ(many.data_raw().rows(), n);
    }
}

TEST(ConcatScale, AThousandDatasets) {
    TempDir dir;
    std::vector<Sample> samples;
    samples.push_back(Sample::bytes("a", sample_bytes("a")).set("v", Value(1.5)));
    create(Taco(Tortilla(std::move(samples)), test_collection("one")), dir / "one.tacozip");
    const Dataset one = load(dir / "one.tacozip");
    const Dataset many = concat(std::vector<Dataset>(1000, one));
    EXPECT_EQ(many.count(), 1000u);
    const DataFrame df = many.sql("SELECT count(*) AS n, sum(v) AS s FROM data").data();
    EXPECT_EQ(df.value(0, "n").as_int(), 1000);
    EXPECT_DOUBLE_EQ(df.value(0, "s").as_double(), 1500.0);
    // Reading through the union still reaches each part's bytes.
    EXPECT_EQ(many.data().read_bytes(999), sample_bytes("a"));
}
