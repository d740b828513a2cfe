// geotiff_stats / geotiff_stats_many / with_geotiff_stats: from samples to the `geotiff:stats`
// values in the reference's layout (include/taco/geotiff_stats.hpp), on a pool of threads.
#include "taco/geotiff_stats.hpp"

#include <cpl_vsi.h>

#include <atomic>
#include <cmath>
#include <exception>
#include <limits>
#include <mutex>
#include <set>

#include "geostats/pixel_stats.hpp"
#include "io/parallel.hpp"
#include "taco/errors.hpp"

namespace taco {
namespace {

DataType band_type() {
    return DataType::list(DataType::float32());
}
DataType stats_type() {
    return DataType::list(band_type());
}
DataType count_type() {
    return DataType::list(DataType::int64());
}

Value valid_count_value(const std::vector<geostats::BandPixelStats>& bands) {
    Value::List counts;
    for (const auto& b : bands) counts.push_back(Value(static_cast<int64_t>(b.valid)));
    return Value::list(DataType::int64(), std::move(counts));
}

std::string sample_label(const Sample& s) {
    std::string label = "sample '" + s.id() + "'";
    if (!s.path().empty()) label += " (" + s.path().string() + ")";
    return label;
}

void check_options(const GeotiffStatsOptions& o) {
    if (!o.categorical) {
        if (!o.class_values.empty())
            throw SchemaError("GeotiffStats: class_values are given but categorical is false");
        return;
    }
    if (o.class_values.empty())
        throw SchemaError("GeotiffStats: categorical=True needs class_values (e.g. [0, 1, 2])");
    std::set<long long> seen;
    for (long long v : o.class_values) {
        if (!seen.insert(v).second)
            throw SchemaError("GeotiffStats: class value " + std::to_string(v) +
                              " is given twice in class_values");
    }
}

// A numeric field of the sample (the Scaling extension's), or `fallback`.
double numeric_field(const Sample& s, const char* key, double fallback) {
    const Value* v = s.get(key);
    if (!v || v->is_null()) return fallback;
    switch (v->type().id()) {
        case TypeId::Float32:
        case TypeId::Float64:
            return v->as_double();
        case TypeId::Int32:
        case TypeId::Int64:
            return static_cast<double>(v->as_int());
        default:
            throw SchemaError(sample_label(s) + ": field '" + key + "' has type " +
                              v->type().arrow_name() + ", expected a number");
    }
}

// The bytes of an in-memory sample as a /vsimem/ file for as long as this lives (no copy).
class MemoryFile {
  public:
    MemoryFile(const std::string& data, const std::string& id) {
        static std::atomic<uint64_t> counter{0};
        name_ = "/vsimem/taco_geostats/" + std::to_string(counter++) + "/" + id;
        VSILFILE* f = VSIFileFromMemBuffer(name_.c_str(),
                                           reinterpret_cast<GByte*>(const_cast<char*>(data.data())),
                                           static_cast<vsi_l_offset>(data.size()), FALSE);
        if (!f) throw IoError("sample '" + id + "': cannot expose its bytes to GDAL");
        VSIFCloseL(f);
    }
    ~MemoryFile() { VSIUnlink(name_.c_str()); }
    MemoryFile(const MemoryFile&) = delete;
    MemoryFile& operator=(const MemoryFile&) = delete;
    const std::string& name() const { return name_; }

  private:
    std::string name_;
};

Value continuous_value(const std::vector<geostats::BandPixelStats>& bands, double factor,
                       double offset) {
    Value::List out;
    bool any_valid = false;
    for (const auto& b : bands) {
        any_valid = any_valid || b.valid > 0;
        const double valid_pct =
            b.total ? 100.0 * static_cast<double>(b.valid) / static_cast<double>(b.total) : 0.0;
        auto scaled = [&](double v) { return static_cast<float>(v * factor + offset); };
        // A negative factor reverses the order: the scaled minimum is the raw maximum, and the
        // scaled p25 the raw p75 (numpy's linear percentiles are symmetric).
        const bool reversed = factor < 0;
        Value::List v = {scaled(reversed ? b.max : b.min),
                         scaled(reversed ? b.min : b.max),
                         scaled(b.mean),
                         static_cast<float>(b.std * std::fabs(factor)),
                         static_cast<float>(valid_pct),
                         scaled(reversed ? b.p75 : b.p25),
                         scaled(b.p50),
                         scaled(reversed ? b.p25 : b.p75),
                         scaled(reversed ? b.p05 : b.p95)};
        out.push_back(Value::list(DataType::float32(), std::move(v)));
    }
    if (!any_valid) return Value::null(stats_type());
    return Value::list(band_type(), std::move(out));
}

Value categorical_value(const std::vector<geostats::BandPixelStats>& bands,
                        const std::string& label) {
    Value::List out;
    bool any_valid = false;
    for (size_t b = 0; b < bands.size(); ++b) {
        any_valid = any_valid || bands[b].valid > 0;
        uint64_t in_classes = 0;
        for (uint64_t c : bands[b].class_counts) in_classes += c;
        Value::List p;
        if (bands[b].valid > 0 && in_classes == 0) {
            throw SchemaError(label + ": band " + std::to_string(b + 1) + " has " +
                              std::to_string(bands[b].valid) +
                              " valid pixels but none equals a value of class_values");
        }
        for (uint64_t c : bands[b].class_counts) {
            p.push_back(in_classes ? static_cast<float>(static_cast<double>(c) /
                                                        static_cast<double>(in_classes))
                                   : std::numeric_limits<float>::quiet_NaN());
        }
        out.push_back(Value::list(DataType::float32(), std::move(p)));
    }
    if (!any_valid) return Value::null(stats_type());
    return Value::list(band_type(), std::move(out));
}

GeotiffStatsValues compute(const Sample& sample, const GeotiffStatsOptions& options) {
    if (sample.is_folder()) return {Value::null(stats_type()), Value::null(count_type())};
    const std::string label = sample_label(sample);
    const std::vector<long long>* classes = options.categorical ? &options.class_values : nullptr;
    std::vector<geostats::BandPixelStats> bands;
    if (const std::string* bytes = sample.memory()) {
        MemoryFile file(*bytes, sample.id());
        bands = geostats::pixel_stats(file.name(), label, classes);
    } else {
        bands = geostats::pixel_stats(sample.path().string(), label, classes);
    }
    if (options.categorical) return {categorical_value(bands, label), valid_count_value(bands)};
    return {continuous_value(bands, numeric_field(sample, "scaling:scale_factor", 1.0),
                             numeric_field(sample, "scaling:scale_offset", 0.0)),
            valid_count_value(bands)};
}

// Every FILE sample below `t` (padding excluded), depth first, in order.
void collect_files(const Tortilla& t, std::vector<const Sample*>& out) {
    for (const Sample& s : t.samples()) {
        if (s.is_padding()) continue;
        if (s.is_folder())
            collect_files(s.children(), out);
        else
            out.push_back(&s);
    }
}

// Rebuilds `t` with the computed values, consumed in collect_files() order.
Tortilla rebuild(const Tortilla& t, const GeotiffStatsResult& values, size_t& next) {
    bool has_files = false;
    size_t padding = 0;
    for (const Sample& s : t.samples()) {
        if (s.is_padding())
            ++padding;
        else
            has_files = has_files || s.is_file();
    }
    std::vector<Sample> samples;
    for (const Sample& s : t.samples()) {
        if (s.is_padding()) continue;
        if (s.is_folder()) {
            Sample folder = Sample::folder(s.id(), rebuild(s.children(), values, next));
            for (const Field& f : s.fields()) folder.set(f.name, f.value);
            if (has_files) {
                folder.set(kGeotiffStatsColumn, Value::null(stats_type()));
                folder.set(kGeotiffStatsValidCountColumn, Value::null(count_type()));
            }
            samples.push_back(std::move(folder));
        } else {
            Sample file = s;
            file.set(kGeotiffStatsColumn, values.values.at(next));
            file.set(kGeotiffStatsValidCountColumn, values.valid_counts.at(next));
            ++next;
            samples.push_back(std::move(file));
        }
    }
    // Padding samples are re-made by the constructor with the new schema (typed nulls).
    TortillaOptions opts;
    if (padding) opts.pad_to = samples.size() + padding;
    return Tortilla(std::move(samples), opts);
}

}  // namespace

Value geotiff_stats(const Sample& sample, const GeotiffStatsOptions& options) {
    check_options(options);
    return compute(sample, options).stats;
}

GeotiffStatsValues geotiff_stats_with_count(const Sample& sample,
                                            const GeotiffStatsOptions& options) {
    check_options(options);
    return compute(sample, options);
}

GeotiffStatsResult geotiff_stats_many(const std::vector<const Sample*>& samples,
                                      const GeotiffStatsOptions& options) {
    check_options(options);
    GeotiffStatsResult result;
    result.values.assign(samples.size(), Value::null(stats_type()));
    result.valid_counts.assign(samples.size(), Value::null(count_type()));
    std::vector<std::exception_ptr> errors(samples.size());
    std::atomic<bool> failed{false};
    std::mutex progress_mutex;
    size_t done = 0;
    io::parallel_for(samples.size(), options.threads, [&](size_t i) {
        // Without skipping, the first failure makes the rest pointless: stop starting samples.
        if (failed.load(std::memory_order_relaxed)) return;
        try {
            GeotiffStatsValues v = compute(*samples[i], options);
            result.values[i] = std::move(v.stats);
            result.valid_counts[i] = std::move(v.valid_count);
        } catch (...) {
            errors[i] = std::current_exception();
            if (!options.skip_unreadable) failed = true;
        }
        if (options.progress) {
            std::lock_guard lock(progress_mutex);
            options.progress(++done, samples.size());
        }
    });
    for (size_t i = 0; i < errors.size(); ++i) {
        if (!errors[i]) continue;
        if (!options.skip_unreadable) std::rethrow_exception(errors[i]);  // names its sample
        try {
            std::rethrow_exception(errors[i]);
        } catch (const std::exception& e) {
            result.skipped.push_back(e.what());
        }
    }
    return result;
}

Tortilla with_geotiff_stats(const Tortilla& tortilla, const GeotiffStatsOptions& options,
                            std::vector<std::string>* skipped) {
    std::vector<const Sample*> files;
    collect_files(tortilla, files);
    GeotiffStatsResult r = geotiff_stats_many(files, options);
    if (skipped) skipped->insert(skipped->end(), r.skipped.begin(), r.skipped.end());
    size_t next = 0;
    return rebuild(tortilla, r, next);
}

}  // namespace taco
