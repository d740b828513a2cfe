// Scaling and Split sample extensions (tacotoolbox sample/extensions/scaling.py, split.py).
#include <cmath>

#include "ext/crs.hpp"
#include "taco/errors.hpp"
#include "taco/extensions.hpp"

namespace taco::ext {
namespace {

using detail::where;

Value scalar_or_null(const std::vector<float>& v, std::string_view sample_id,
                     std::string_view field) {
    if (v.size() > 1)
        throw SchemaError(where(sample_id, field) + "expected one number, got " +
                          std::to_string(v.size()) + " (set per_band for one per band)");
    return v.empty() ? Value::null(DataType::float32()) : Value(v[0]);
}

Value list_or_null(const std::vector<float>& v) {
    if (v.empty()) return Value::null(DataType::list(DataType::float32()));
    Value::List items;
    for (float f : v) items.emplace_back(f);
    return Value::list(DataType::float32(), std::move(items));
}

}  // namespace

std::vector<Field> fields(const Scaling& s, std::string_view sample_id) {
    for (float f : s.scale_factor) {
        if (f == 0.0f)
            throw SchemaError(where(sample_id, "scaling:scale_factor") +
                              "a scale factor of 0 cannot be unpacked");
        if (!std::isfinite(f))
            throw SchemaError(where(sample_id, "scaling:scale_factor") + "expected finite numbers");
    }
    for (float f : s.scale_offset)
        if (!std::isfinite(f))
            throw SchemaError(where(sample_id, "scaling:scale_offset") + "expected finite numbers");
    // One value against several (one offset for every band, or one factor) is a broadcast, which
    // tacotoolbox writes as given and readers apply to every band; other counts cannot pair up.
    if (s.per_band && s.scale_factor.size() > 1 && s.scale_offset.size() > 1 &&
        s.scale_factor.size() != s.scale_offset.size())
        throw SchemaError(where(sample_id, "scaling:scale_offset") + "has " +
                          std::to_string(s.scale_offset.size()) + " values but scale_factor has " +
                          std::to_string(s.scale_factor.size()));
    Value padding = Value::null(DataType::list(DataType::int32()));
    if (s.padding) {
        Value::List items;
        for (int32_t p : *s.padding) {
            if (p < 0)
                throw SchemaError(where(sample_id, "scaling:padding") +
                                  "expected pixel counts >= 0, got " + std::to_string(p));
            items.push_back(Value::int32(p));
        }
        padding = Value::list(DataType::int32(), std::move(items));
    }
    if (s.per_band)
        return {{"scaling:scale_factor", list_or_null(s.scale_factor)},
                {"scaling:scale_offset", list_or_null(s.scale_offset)},
                {"scaling:padding", std::move(padding)}};
    return {
        {"scaling:scale_factor", scalar_or_null(s.scale_factor, sample_id, "scaling:scale_factor")},
        {"scaling:scale_offset", scalar_or_null(s.scale_offset, sample_id, "scaling:scale_offset")},
        {"scaling:padding", std::move(padding)}};
}

std::vector<Field> split_fields(const std::string& split, std::string_view sample_id) {
    if (split != "train" && split != "test" && split != "validation")
        throw SchemaError(where(sample_id, "split") + "'" + split +
                          "' is not one of 'train', 'test', 'validation'");
    return {{"split", Value(split)}};
}

}  // namespace taco::ext
