// Band statistics over a dataset's current view, from the per-sample `geotiff:stats` column
// (spec §7; REFERENCE-API §A14 for the reference's stats_* and its layout). See
// Dataset::band_stats and USER-GUIDE "Space, time and statistics" for how each value is pooled.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace taco {

/// The pooled statistics of one band over the rows of a view.
struct BandSummary {
    size_t band = 0;
    /// The rows hold class probabilities (any length but 9) instead of the 9 continuous values.
    bool categorical = false;
    uint64_t samples = 0;  // rows that contributed
    // Continuous bands:
    double min = 0, max = 0, mean = 0, std = 0;
    double p25 = 0, p50 = 0, p75 = 0, p95 = 0;
    // Categorical bands: the weighted mean of the probability vectors.
    std::vector<double> probabilities;
};

/// The continuous layout of one band in `geotiff:stats`, as the reference writes it.
inline constexpr size_t kContinuousStats = 9;  // min, max, mean, std, valid%, p25, p50, p75, p95

/// One row of `geotiff:stats` for pooling: its values for one band and its weight.
struct StatsRow {
    const std::vector<double>* values;  // kContinuousStats values
    double weight;  // valid pixels (geotiff:stats_valid_count, else H x W x valid%/100)
};

/// The q-quantile (0 < q < 1) of the mixture of the rows' distributions, each taken as linear
/// between its knots (min, 0), (p25, .25), (p50, .5), (p75, .75), (p95, .95), (max, 1) and
/// weighted by its pixels. One row gives its own percentiles back; rows with weight 0 are
/// ignored. Exposed for tests; NaN when no row has weight.
double pooled_quantile(const std::vector<StatsRow>& rows, double q);

}  // namespace taco
