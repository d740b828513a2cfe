// `geotiff:stats` (spec §5, tacotoolbox's GeotiffStats): per-band statistics of FILE samples that
// GDAL opens, computed exactly from every valid pixel, on all cores.
//
// Layout, one list per band, as the reference writes it (list<list<float32>>):
//   continuous  [min, max, mean, std, valid%, p25, p50, p75, p95]
//   categorical [probability of class_values[0], probability of class_values[1], ...]
// Unlike the reference (GDAL's approximate statistics, percentiles from a 100-bucket histogram)
// every number is exact: percentiles are numpy's default ("linear") percentile of the valid
// pixels, std is the population standard deviation (ddof=0, as GDAL's), and nodata / NaN /
// masked pixels are excluded everywhere (docs/USER-GUIDE.md "Computing geotiff:stats").
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "taco/sample.hpp"
#include "taco/tortilla.hpp"
#include "taco/value.hpp"

namespace taco {

inline constexpr const char* kGeotiffStatsColumn = "geotiff:stats";
/// Written beside `geotiff:stats` whenever tacocore computes it: per band, the number of valid
/// (not nodata, not NaN, not masked) pixels, list<int64>. The reader weights stats_mean/std/
/// percentiles by it (the spec's "weighted by valid pixels"); the reference neither writes nor
/// needs it (docs/USER-GUIDE.md "Computing geotiff:stats").
inline constexpr const char* kGeotiffStatsValidCountColumn = "geotiff:stats_valid_count";

struct GeotiffStatsOptions {
    /// false: the 9 continuous values per band; true: class probabilities (needs class_values).
    bool categorical = false;
    /// The classes, in output order; non-empty and without repeats when categorical.
    std::vector<long long> class_values;
    /// Worker threads, each with its own GDAL dataset (0 = one per core).
    unsigned threads = 0;
    /// A sample GDAL cannot open (or whose classes are all absent) gets a null row and a line in
    /// the result's `skipped`, instead of failing the whole computation.
    bool skip_unreadable = false;
    /// Called after each sample (from worker threads, one call at a time): done, total.
    std::function<void(size_t, size_t)> progress;
};

/// The `geotiff:stats` value of one FILE sample (a file on disk, or bytes in memory read through
/// /vsimem/): list<list<float32>>, or a typed null when no band has a valid pixel. A band without
/// valid pixels gets NaN everywhere but valid% = 0. When the sample carries
/// `scaling:scale_factor` / `scaling:scale_offset`, continuous values are scaled as the reference
/// does (std by the factor only, valid% untouched). Throws IoError naming the sample when GDAL
/// cannot open it, SchemaError for bad options or (categorical) a band with no pixel in any class.
Value geotiff_stats(const Sample& sample, const GeotiffStatsOptions& options = {});

/// The `geotiff:stats` value and, beside it, the valid-pixel count of every band (list<int64>;
/// a typed null for a FOLDER sample). Same errors as geotiff_stats().
struct GeotiffStatsValues {
    Value stats;
    Value valid_count;
};
GeotiffStatsValues geotiff_stats_with_count(const Sample& sample,
                                            const GeotiffStatsOptions& options = {});

struct GeotiffStatsResult {
    /// One per sample given, in order.
    std::vector<Value> values;
    /// The `geotiff:stats_valid_count` of each sample, in the same order.
    std::vector<Value> valid_counts;
    /// "sample 'id': why" for every sample skipped under skip_unreadable.
    std::vector<std::string> skipped;
};

/// geotiff_stats() of every sample, on options.threads threads. FOLDER samples get a typed null.
/// Without skip_unreadable the first failure (in sample order) is thrown, naming its sample.
GeotiffStatsResult geotiff_stats_many(const std::vector<const Sample*>& samples,
                                      const GeotiffStatsOptions& options = {});

/// A copy of `tortilla` in which every FILE sample, at every level, carries `geotiff:stats` and
/// `geotiff:stats_valid_count` (replacing any it had); in a tortilla that has FILE samples its
/// FOLDER samples get a typed null so the level keeps one schema; padding is kept. Skipped samples
/// are appended to `skipped` when it is given.
Tortilla with_geotiff_stats(const Tortilla& tortilla, const GeotiffStatsOptions& options = {},
                            std::vector<std::string>* skipped = nullptr);

}  // namespace taco
