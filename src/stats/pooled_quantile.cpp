// Percentiles of many samples from their own percentiles. Averaging per-sample percentiles (what
// tacoreader does) is wrong as soon as samples differ: two samples of 0..1 and 10..11 have a
// pooled median near 5.5 only by accident of symmetry, and a pooled p95 well above the average
// of their p95s. Here each sample's distribution is rebuilt from the knots it stored and the
// mixture is inverted exactly: a sweep over the knots of all samples, O(n log n).
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "taco/stats.hpp"

namespace taco {

double pooled_quantile(const std::vector<StatsRow>& rows, double q) {
    // Knot positions in the 9-value layout and their cumulative probabilities.
    static constexpr std::array<size_t, 6> kIndex = {0, 5, 6, 7, 8, 1};
    static constexpr std::array<double, 6> kProb = {0.0, 0.25, 0.5, 0.75, 0.95, 1.0};
    struct Event {
        double x;
        double slope;  // change of dF/dx from here on
        double jump;   // mass placed exactly at x
    };
    std::vector<Event> events;
    events.reserve(rows.size() * 10);
    double total = 0;
    for (const StatsRow& r : rows) {
        if (!(r.weight > 0)) continue;
        std::array<double, 6> x;
        bool finite = true;
        for (size_t k = 0; k < 6; ++k) {
            x[k] = (*r.values)[kIndex[k]];
            finite = finite && std::isfinite(x[k]);
        }
        if (!finite) continue;
        // Stored values are float32 and may be a hair out of order: the CDF must not go back.
        std::sort(x.begin(), x.end());
        total += r.weight;
        for (size_t k = 0; k + 1 < 6; ++k) {
            const double mass = r.weight * (kProb[k + 1] - kProb[k]);
            if (x[k + 1] > x[k]) {
                const double s = mass / (x[k + 1] - x[k]);
                events.push_back({x[k], s, 0});
                events.push_back({x[k + 1], -s, 0});
            } else {
                events.push_back({x[k], 0, mass});
            }
        }
    }
    if (total <= 0) return std::numeric_limits<double>::quiet_NaN();
    std::sort(events.begin(), events.end(),
              [](const Event& a, const Event& b) { return a.x < b.x; });
    const double target = q * total;
    double cdf = 0, slope = 0, at = events.front().x;
    for (size_t i = 0; i < events.size();) {
        const double x = events[i].x;
        // Across (at, x) the CDF grows linearly.
        const double rise = slope * (x - at);
        if (slope > 0 && cdf + rise >= target) return at + (target - cdf) / slope;
        cdf += rise;
        at = x;
        // Every event at x: jumps first (mass at the point), then the new slope.
        for (; i < events.size() && events[i].x == x; ++i) {
            cdf += events[i].jump;
            slope += events[i].slope;
        }
        if (cdf >= target) return x;
    }
    return at;
}

}  // namespace taco
