#include "geostats/pixel_stats.hpp"

#include <cpl_conv.h>
#include <cpl_error.h>
#include <gdal.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <type_traits>

#include "log/messages.hpp"
#include "raster/gdal_drivers.hpp"
#include "raster/local_file_check.hpp"
#include "taco/errors.hpp"

namespace taco::geostats {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kPercentiles[5] = {5, 25, 50, 75, 95};

struct DatasetCloser {
    void operator()(void* h) const { GDALClose(h); }
};
using DatasetPtr = std::unique_ptr<void, DatasetCloser>;

// Pixels of one band, fed strip by strip. `mask` (when not null) marks valid pixels with non-zero.
class Accumulator {
  public:
    virtual ~Accumulator() = default;
    virtual void add(const void* data, size_t n, const uint8_t* mask) = 0;
    virtual BandPixelStats finish(const std::vector<long long>* classes) = 0;
};

// The nodata value as a T, when some T equals it; otherwise no pixel can be nodata.
template <typename T>
bool nodata_as(bool has_nodata, double nodata, T& out) {
    if (!has_nodata || std::isnan(nodata)) return false;  // NaN pixels are dropped anyway
    if constexpr (std::is_floating_point_v<T>) {
        out = static_cast<T>(nodata);
        return static_cast<double>(out) == nodata || std::isinf(nodata);
    } else {
        if (nodata < static_cast<double>(std::numeric_limits<T>::lowest()) ||
            nodata > static_cast<double>(std::numeric_limits<T>::max()) ||
            nodata != std::floor(nodata)) {
            return false;
        }
        out = static_cast<T>(nodata);
        return true;
    }
}

// numpy's default percentile: linear interpolation between the order statistics around
// (n - 1) * p / 100. `kth_sorted(ranks)` returns the values of the given ranks (ascending,
// unique), so each kind of accumulator finds them all in one pass.
template <typename KthSorted>
void fill_percentiles(BandPixelStats& s, uint64_t n, KthSorted kth_sorted) {
    double* out[5] = {&s.p05, &s.p25, &s.p50, &s.p75, &s.p95};
    uint64_t lo[5];
    double t[5];
    std::vector<uint64_t> ranks;
    for (int i = 0; i < 5; ++i) {
        const double h = static_cast<double>(n - 1) * kPercentiles[i] / 100.0;
        lo[i] = static_cast<uint64_t>(std::floor(h));
        t[i] = h - static_cast<double>(lo[i]);
        ranks.push_back(lo[i]);
        ranks.push_back(std::min(lo[i] + 1, n - 1));
    }
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    const std::vector<double> values = kth_sorted(ranks);
    auto at = [&](uint64_t r) {
        return values[static_cast<size_t>(std::lower_bound(ranks.begin(), ranks.end(), r) -
                                          ranks.begin())];
    };
    for (int i = 0; i < 5; ++i) {
        const double a = at(lo[i]);
        const double b = at(std::min(lo[i] + 1, n - 1));
        // numpy's _lerp: exact at both ends.
        *out[i] = t[i] >= 0.5 ? b - (b - a) * (1 - t[i]) : a + (b - a) * t[i];
    }
}

void set_empty(BandPixelStats& s) {
    s.min = s.max = s.mean = s.std = s.p05 = s.p25 = s.p50 = s.p75 = s.p95 = kNaN;
}

// Histograms are reused by the thread that made them, cleared only where they were written:
// a fresh 256 KiB (16-bit) histogram per band would cost page faults and a full clear for every
// band of every file, more than counting the pixels of a small tile.
template <typename Count>
std::vector<std::vector<Count>>& histogram_pool() {
    thread_local std::vector<std::vector<Count>> pool;
    return pool;
}

template <typename Count>
std::vector<Count> take_histogram(size_t bins) {
    auto& pool = histogram_pool<Count>();
    for (size_t i = pool.size(); i-- > 0;) {
        if (pool[i].size() == bins) {
            std::vector<Count> h = std::move(pool[i]);
            pool.erase(pool.begin() + static_cast<std::ptrdiff_t>(i));
            return h;
        }
    }
    return std::vector<Count>(bins, 0);
}

template <typename Count>
void give_histogram(std::vector<Count> h) {
    auto& pool = histogram_pool<Count>();
    if (pool.size() < 16 && !h.empty()) pool.push_back(std::move(h));  // bounded: 16 bands' worth
}

// 8- and 16-bit integers: an exact histogram with one bin per possible value; every statistic
// is read off the counts, with no copy of the pixels.
template <typename T, typename Count>
class HistogramAccumulator final : public Accumulator {
  public:
    HistogramAccumulator(bool has_nodata, double nodata)
        : counts_(take_histogram<Count>(size_t{1} << (8 * sizeof(T)))),
          skip_nodata_(nodata_as<T>(has_nodata, nodata, nodata_)) {}
    ~HistogramAccumulator() override {
        // Back to this thread's pool, cleared where it was written (all of it if unknown).
        if (used_first_ <= used_last_)
            std::fill(counts_.begin() + used_first_, counts_.begin() + used_last_ + 1, 0);
        else if (!finished_)
            std::fill(counts_.begin(), counts_.end(), 0);
        give_histogram(std::move(counts_));
    }
    HistogramAccumulator(const HistogramAccumulator&) = delete;
    HistogramAccumulator& operator=(const HistogramAccumulator&) = delete;

    void add(const void* data, size_t n, const uint8_t* mask) override {
        const T* v = static_cast<const T*>(data);
        total_ += n;
        Count* counts = counts_.data();
        if (mask) {
            for (size_t i = 0; i < n; ++i) counts[bin(v[i])] += mask[i] != 0;
        } else {
            for (size_t i = 0; i < n; ++i) ++counts[bin(v[i])];
        }
        if (skip_nodata_) counts_[bin(nodata_)] = 0;  // nodata is never counted (cheap to undo)
    }

    BandPixelStats finish(const std::vector<long long>* classes) override {
        BandPixelStats s;
        s.total = total_;
        size_t first = 0, last = counts_.size();
        while (first < counts_.size() && counts_[first] == 0) ++first;
        if (first < counts_.size()) {
            while (counts_[last - 1] == 0) --last;
            --last;  // the last non-empty bin
            for (size_t k = first; k <= last; ++k) s.valid += counts_[k];
            used_first_ = first;
            used_last_ = last;
        }
        finished_ = true;
        if (classes) {
            for (long long cls : *classes) {
                const long long k = cls - kLowest;
                s.class_counts.push_back(k >= 0 && k < static_cast<long long>(counts_.size())
                                             ? counts_[static_cast<size_t>(k)]
                                             : 0);
            }
            return s;
        }
        if (s.valid == 0) {
            set_empty(s);
            return s;
        }
        s.min = value(first);
        s.max = value(last);
        long double sum = 0;
        for (size_t k = first; k <= last; ++k)
            sum += static_cast<long double>(counts_[k]) * value(k);
        s.mean = static_cast<double>(sum / s.valid);
        long double sq = 0;
        for (size_t k = first; k <= last; ++k) {
            const long double d = value(k) - s.mean;
            sq += static_cast<long double>(counts_[k]) * d * d;
        }
        s.std = std::sqrt(static_cast<double>(sq / s.valid));
        fill_percentiles(s, s.valid, [&](const std::vector<uint64_t>& ranks) {
            std::vector<double> v;
            uint64_t seen = 0;
            size_t k = first;
            for (uint64_t rank : ranks) {  // one sweep of the cumulative counts
                while (k < last && seen + counts_[k] <= rank) seen += counts_[k++];
                v.push_back(value(k));
            }
            return v;
        });
        return s;
    }

  private:
    static constexpr long long kLowest = std::numeric_limits<T>::lowest();
    static size_t bin(T v) { return static_cast<size_t>(static_cast<long long>(v) - kLowest); }
    static double value(size_t k) {
        return static_cast<double>(static_cast<long long>(k) + kLowest);
    }

    std::vector<Count> counts_;
    size_t used_first_ = 1, used_last_ = 0;  // the written bins, once finish() found them
    bool finished_ = false;
    T nodata_{};
    bool skip_nodata_;
    uint64_t total_ = 0;
};

// Wider integers and floats: the valid pixels are kept and the percentiles selected with
// nth_element, so they are exact whatever the range of values.
template <typename T>
class ValueAccumulator final : public Accumulator {
  public:
    ValueAccumulator(bool has_nodata, double nodata)
        : skip_nodata_(nodata_as<T>(has_nodata, nodata, nodata_)) {}

    void add(const void* data, size_t n, const uint8_t* mask) override {
        const T* v = static_cast<const T*>(data);
        total_ += n;
        for (size_t i = 0; i < n; ++i) {
            if (mask && !mask[i]) continue;
            if constexpr (std::is_floating_point_v<T>) {
                if (std::isnan(v[i])) continue;
            }
            if (skip_nodata_ && v[i] == nodata_) continue;
            values_.push_back(v[i]);
        }
    }

    BandPixelStats finish(const std::vector<long long>* classes) override {
        BandPixelStats s;
        s.total = total_;
        s.valid = values_.size();
        if (classes) {
            std::sort(values_.begin(), values_.end());
            for (long long cls : *classes) {
                const double c = static_cast<double>(cls);
                auto lo = std::lower_bound(values_.begin(), values_.end(), c, [](T a, double b) {
                    return static_cast<double>(a) < b;
                });
                auto hi = std::upper_bound(values_.begin(), values_.end(), c, [](double a, T b) {
                    return a < static_cast<double>(b);
                });
                s.class_counts.push_back(static_cast<uint64_t>(hi - lo));
            }
            return s;
        }
        if (s.valid == 0) {
            set_empty(s);
            return s;
        }
        auto [mn, mx] = std::minmax_element(values_.begin(), values_.end());
        s.min = static_cast<double>(*mn);
        s.max = static_cast<double>(*mx);
        long double sum = 0;
        for (T v : values_) sum += static_cast<long double>(v);
        s.mean = static_cast<double>(sum / s.valid);
        long double sq = 0;
        for (T v : values_) {
            const long double d = static_cast<long double>(v) - s.mean;
            sq += d * d;
        }
        s.std = std::sqrt(static_cast<double>(sq / s.valid));
        // Ranks come in increasing order: each selection only searches above the previous one.
        fill_percentiles(s, s.valid, [&](const std::vector<uint64_t>& ranks) {
            std::vector<double> v;
            auto from = values_.begin();
            for (uint64_t rank : ranks) {
                auto it = values_.begin() + static_cast<std::ptrdiff_t>(rank);
                std::nth_element(from, it, values_.end());
                v.push_back(static_cast<double>(*it));
                from = it + 1;
            }
            return v;
        });
        return s;
    }

  private:
    std::vector<T> values_;
    T nodata_{};
    bool skip_nodata_;
    uint64_t total_ = 0;
};

template <typename T>
std::unique_ptr<Accumulator> histogram(bool has_nodata, double nodata, uint64_t pixels) {
    // 32-bit counters halve the histogram to clear; a band of 2^32 pixels or more needs 64.
    if (pixels < (uint64_t{1} << 32))
        return std::make_unique<HistogramAccumulator<T, uint32_t>>(has_nodata, nodata);
    return std::make_unique<HistogramAccumulator<T, uint64_t>>(has_nodata, nodata);
}

// GDAL before 3.7 has no Int8 type: an int8 GeoTIFF opens as a Byte band marked
// PIXELTYPE=SIGNEDBYTE, whose bytes are two's complement (-50 is 206).
bool signed_bytes(GDALRasterBandH band) {
    const char* pixel_type = GDALGetMetadataItem(band, "PIXELTYPE", "IMAGE_STRUCTURE");
    return pixel_type && std::strcmp(pixel_type, "SIGNEDBYTE") == 0;
}

std::unique_ptr<Accumulator> make_accumulator(GDALDataType type, bool is_signed_byte,
                                              bool has_nodata, double nodata, uint64_t pixels,
                                              const std::string& label, int band) {
    switch (type) {
        case GDT_Byte:
            if (is_signed_byte) return histogram<int8_t>(has_nodata, nodata, pixels);
            return histogram<uint8_t>(has_nodata, nodata, pixels);
#if GDAL_VERSION_NUM >= 3070000
        case GDT_Int8:
            return histogram<int8_t>(has_nodata, nodata, pixels);
#endif
        case GDT_UInt16:
            return histogram<uint16_t>(has_nodata, nodata, pixels);
        case GDT_Int16:
            return histogram<int16_t>(has_nodata, nodata, pixels);
        case GDT_UInt32:
            return std::make_unique<ValueAccumulator<uint32_t>>(has_nodata, nodata);
        case GDT_Int32:
            return std::make_unique<ValueAccumulator<int32_t>>(has_nodata, nodata);
        case GDT_UInt64:
            return std::make_unique<ValueAccumulator<uint64_t>>(has_nodata, nodata);
        case GDT_Int64:
            return std::make_unique<ValueAccumulator<int64_t>>(has_nodata, nodata);
        case GDT_Float32:
            return std::make_unique<ValueAccumulator<float>>(has_nodata, nodata);
        case GDT_Float64:
            return std::make_unique<ValueAccumulator<double>>(has_nodata, nodata);
        default:
            throw IoError(label + ": band " + std::to_string(band) + " has pixel type " +
                          GDALGetDataTypeName(type) +
                          "; geotiff:stats needs real (not complex) pixels");
    }
}

[[noreturn]] void gdal_failure(const std::string& label, const std::string& what) {
    std::string msg = CPLGetLastErrorMsg();
    throw IoError(label + ": " + what + (msg.empty() ? "" : " (GDAL: " + msg + ")"));
}

// Reading GDAL_DISABLE_READDIR_ON_OPEN=TRUE on this thread while opening: GDAL would otherwise
// list the whole directory for every file to find sidecars, quadratic over a tree of 1,000
// files in one folder. Sidecars (.aux.xml, .msk, .ovr) are still found by name.
class NoDirectoryListing {
  public:
    NoDirectoryListing() {
        const char* old = CPLGetThreadLocalConfigOption("GDAL_DISABLE_READDIR_ON_OPEN", nullptr);
        had_ = old != nullptr;
        if (had_) old_ = old;
        CPLSetThreadLocalConfigOption("GDAL_DISABLE_READDIR_ON_OPEN", "TRUE");
    }
    ~NoDirectoryListing() {
        CPLSetThreadLocalConfigOption("GDAL_DISABLE_READDIR_ON_OPEN",
                                      had_ ? old_.c_str() : nullptr);
    }

  private:
    bool had_ = false;
    std::string old_;
};

}  // namespace

std::vector<BandPixelStats> pixel_stats(const std::string& gdal_path, const std::string& label,
                                        const std::vector<long long>* classes) {
    raster::register_drivers();
    if (gdal_path.rfind("/vsi", 0) != 0) raster::refuse_non_regular_local_file(gdal_path);
    CPLErrorReset();
    DatasetPtr ds;
    {
        NoDirectoryListing no_listing;
        ds.reset(GDALOpenEx(gdal_path.c_str(), GDAL_OF_RASTER | GDAL_OF_READONLY, nullptr, nullptr,
                            nullptr));
    }
    if (!ds) gdal_failure(label, "GDAL cannot open it as a raster");
    const int bands = GDALGetRasterCount(ds.get());
    const int width = GDALGetRasterXSize(ds.get());
    const int height = GDALGetRasterYSize(ds.get());
    if (bands == 0) throw IoError(label + ": the raster has no band");

    std::vector<std::unique_ptr<Accumulator>> acc;
    std::vector<GDALRasterBandH> band_h;
    std::vector<GDALDataType> types;
    std::vector<GDALRasterBandH> masks;  // null where nodata (or nothing) decides validity
    bool uniform = true;
    for (int b = 1; b <= bands; ++b) {
        GDALRasterBandH h = GDALGetRasterBand(ds.get(), b);
        int has_nodata = 0;
        const double nodata = GDALGetRasterNoDataValue(h, &has_nodata);
        const GDALDataType t = GDALGetRasterDataType(h);
        acc.push_back(make_accumulator(t, t == GDT_Byte && signed_bytes(h), has_nodata != 0, nodata,
                                       static_cast<uint64_t>(width) * static_cast<uint64_t>(height),
                                       label, b));
        band_h.push_back(h);
        types.push_back(t);
        uniform = uniform && t == types.front();
        const int flags = GDALGetMaskFlags(h);
        masks.push_back((flags & (GMF_ALL_VALID | GMF_NODATA)) ? nullptr : GDALGetMaskBand(h));
    }

    // Strips of whole block rows, about 4 M values of all bands at once.
    int block_x = 0, block_y = 0;
    GDALGetBlockSize(band_h.front(), &block_x, &block_y);
    block_y = std::max(block_y, 1);
    const size_t row_values = static_cast<size_t>(width) * static_cast<size_t>(bands);
    int strip =
        static_cast<int>(std::max<size_t>(1, (size_t{1} << 22) / std::max<size_t>(row_values, 1)));
    strip = std::max(block_y, strip / block_y * block_y);
    strip = std::min(strip, std::max(height, 1));

    size_t max_size = 0;
    for (GDALDataType t : types) max_size = std::max<size_t>(max_size, GDALGetDataTypeSizeBytes(t));
    const size_t plane = static_cast<size_t>(width) * static_cast<size_t>(strip);
    // Kept by the thread between files (as the histograms): no fresh pages for every raster.
    thread_local std::vector<uint8_t> buffer, mask_buffer;
    buffer.resize(plane * max_size * (uniform ? bands : 1));
    for (int y = 0; y < height; y += strip) {
        const int rows = std::min(strip, height - y);
        const size_t n = static_cast<size_t>(width) * static_cast<size_t>(rows);
        if (uniform) {
            const int size = GDALGetDataTypeSizeBytes(types.front());
            if (GDALDatasetRasterIO(ds.get(), GF_Read, 0, y, width, rows, buffer.data(), width,
                                    rows, types.front(), bands, nullptr, size,
                                    static_cast<GSpacing>(size) * width,
                                    static_cast<GSpacing>(size) * width * rows) != CE_None) {
                gdal_failure(label, "reading rows " + std::to_string(y) + ".." +
                                        std::to_string(y + rows - 1) + " failed");
            }
        }
        for (int b = 0; b < bands; ++b) {
            const int size = GDALGetDataTypeSizeBytes(types[b]);
            uint8_t* data = buffer.data() + (uniform ? static_cast<size_t>(b) * n * size : 0);
            if (!uniform && GDALRasterIO(band_h[b], GF_Read, 0, y, width, rows, data, width, rows,
                                         types[b], 0, 0) != CE_None) {
                gdal_failure(label, "reading band " + std::to_string(b + 1) + " failed");
            }
            const uint8_t* mask = nullptr;
            if (masks[b]) {
                mask_buffer.resize(n);
                if (GDALRasterIO(masks[b], GF_Read, 0, y, width, rows, mask_buffer.data(), width,
                                 rows, GDT_Byte, 0, 0) != CE_None) {
                    gdal_failure(label,
                                 "reading the mask of band " + std::to_string(b + 1) + " failed");
                }
                mask = mask_buffer.data();
            }
            acc[b]->add(data, n, mask);
        }
    }
    std::vector<BandPixelStats> out;
    out.reserve(acc.size());
    for (auto& a : acc) out.push_back(a->finish(classes));
    return out;
}

}  // namespace taco::geostats
