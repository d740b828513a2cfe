// Dataset::band_stats and pooled_quantile: pooling of geotiff:stats over the current view
// (numbers checked independently with numpy in tests/python/test_spacetime.py).
#include <gtest/gtest.h>

#include <cmath>

#include "reader_test_util.hpp"
#include "taco/stats.hpp"

using namespace taco;
using namespace taco::test;

TEST(PooledQuantile, OneRowGivesItsOwnPercentiles) {
    const std::vector<double> v = {0, 100, 50, 10, 100, 20, 45, 70, 90};
    const std::vector<StatsRow> rows = {{&v, 7}};
    EXPECT_DOUBLE_EQ(pooled_quantile(rows, 0.25), 20);
    EXPECT_DOUBLE_EQ(pooled_quantile(rows, 0.5), 45);
    EXPECT_DOUBLE_EQ(pooled_quantile(rows, 0.95), 90);
    EXPECT_NEAR(pooled_quantile(rows, 0.85), 80, 1e-9);  // linear between p75 and p95
}

TEST(PooledQuantile, MixtureOfDisjointRows) {
    const std::vector<double> lo = {0, 1, .5, .1, 100, .25, .5, .75, .95};
    const std::vector<double> hi = {10, 11, 10.5, .1, 100, 10.25, 10.5, 10.75, 10.95};
    // weights 1:3 -> the median lies in the heavy row, a third of the way into its 2nd quarter
    EXPECT_NEAR(pooled_quantile({{&lo, 1}, {&hi, 3}}, 0.5), 10 + 1.0 / 3, 1e-12);
    EXPECT_NEAR(pooled_quantile({{&lo, 1}, {&hi, 1}}, 0.25), 0.5, 1e-12);
    EXPECT_NEAR(pooled_quantile({{&lo, 1}, {&hi, 1}}, 0.5), 1, 1e-12);  // the gap starts
    // a constant row is a point mass
    const std::vector<double> flat = {5, 5, 5, 0, 100, 5, 5, 5, 5};
    EXPECT_DOUBLE_EQ(pooled_quantile({{&flat, 1}}, 0.3), 5);
    EXPECT_TRUE(std::isnan(pooled_quantile({{&flat, 0}}, 0.3)));
}

TEST(BandStats, FollowsTheViewOnTheReferenceFixture) {
    Dataset ds = load(kFlatZip);
    const std::vector<BandSummary> all = ds.band_stats({0, 1, 2});
    ASSERT_EQ(all.size(), 3u);
    EXPECT_EQ(all[0].samples, 5u);
    EXPECT_FALSE(all[0].categorical);
    EXPECT_DOUBLE_EQ(all[0].min, 0);
    EXPECT_DOUBLE_EQ(all[0].max, 255);
    const BandSummary one = ds.sql("SELECT * FROM data WHERE id = 'sample_2'").band_stats({0})[0];
    EXPECT_EQ(one.samples, 1u);
    EXPECT_NEAR(one.mean, 142.0, 1e-4);
    EXPECT_NEAR(one.std, 42.8, 1e-4);
    EXPECT_NEAR(one.p50, 138.0, 1e-4);
    EXPECT_NEAR(one.min, 10.0, 1e-9);
    EXPECT_EQ(ds.band_stats({0}, 0, "sample_2")[0].mean, one.mean);
    EXPECT_THROW(ds.band_stats({3}), QueryError);
    EXPECT_THROW(ds.band_stats({}), QueryError);
    EXPECT_THROW(ds.band_stats({0}, 1), QueryError);
    EXPECT_THROW(load(kNestedZip).band_stats({0}), QueryError);
}
