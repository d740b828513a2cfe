// TORTILLA: an ordered set of samples with one metadata schema (spec §5.2, FORMAT.md §8.2).
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "taco/sample.hpp"
#include "taco/value.hpp"

namespace taco {

/// Bounds of pad_to (USER-GUIDE "Limits"): at most kMaxPadTo, and the padding added to one
/// tortilla at most max(kMaxPaddingFloor, kMaxPaddingFactor x its samples).
inline constexpr size_t kMaxPadTo = 65536;
inline constexpr size_t kMaxPaddingFloor = 1024;
inline constexpr size_t kMaxPaddingFactor = 4;

struct TortillaOptions {
    /// Append `__TACOPAD__N` zero-byte samples until the count is a multiple of this; SchemaError
    /// beyond the bounds above.
    std::optional<size_t> pad_to;
    /// true: every sample must have the same fields (names, types, order) as the first one.
    /// false: fields are aligned (union of names, code-point sorted) and missing ones are null.
    bool strict_schema = true;
};

class Tortilla {
  public:
    /// Validates the samples (non-empty, unique ids, uniform schema) and applies padding.
    /// Throws SchemaError naming the sample and column that break a rule.
    explicit Tortilla(std::vector<Sample> samples, TortillaOptions options = {});

    const std::vector<Sample>& samples() const { return samples_ ? *samples_ : moved_from(); }
    size_t size() const { return samples().size(); }
    /// Unchecked, as std::vector's (i < size()); a moved-from Tortilla has no samples.
    const Sample& operator[](size_t i) const { return samples()[i]; }
    /// The extension columns shared by all samples, in order (types resolved across samples).
    const std::vector<ColumnType>& schema() const { return schema_; }
    /// Total bytes of every FILE below this tortilla.
    uint64_t total_size() const { return total_size_; }
    /// Number of levels below and including this one (1 for a tortilla of FILEs).
    size_t depth() const { return depth_; }

  private:
    // Shared: a Tortilla never changes once built, and it is copied whole into every Taco and
    // FOLDER sample made from it (a Python Taco copied a million samples' fields).
    std::shared_ptr<const std::vector<Sample>> samples_;
    static const std::vector<Sample>& moved_from();
    std::vector<ColumnType> schema_;
    uint64_t total_size_ = 0;
    size_t depth_ = 1;
};

}  // namespace taco
