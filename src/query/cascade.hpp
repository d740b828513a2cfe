// What a cascade filter (filter_bbox / filter_datetime at level > 0, spec §8.2) leaves behind for
// navigation: for each deeper level, the rows that survive (the matches and their ancestors), so
// that read() below a kept sample lists only its surviving children (REFERENCE-API §A10, §A11).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "metadata/result_table.hpp"

namespace taco::query {

struct DatasetContext;

class Cascade {
  public:
    /// `levels[k]` (k >= 1): self-contained SQL of the surviving rows of `level{k}`; "" when level
    /// k is not filtered (every child shows). levels[0] is unused (the dataset's view is level 0).
    explicit Cascade(std::vector<std::string> levels) : levels_(std::move(levels)) {}

    /// The SQL of level k's surviving rows, or "" when the level is not filtered.
    const std::string& level_sql(size_t k) const;
    size_t depth() const { return levels_.size(); }

    /// The surviving children (at `level`) of the sample whose internal:current_id is
    /// `parent_id`, in storage order, with every column of the level (tacoreader's children
    /// after a cascade: internal:offset, internal:size, internal:relative_path too). The level's
    /// survivors are computed once, on first use, into a temporary table of the dataset's
    /// connection. QueryError/FormatError as data().
    std::shared_ptr<const metadata::ResultTable> children(DatasetContext& ctx, size_t level,
                                                          int64_t parent_id) const;

  private:
    std::vector<std::string> levels_;
    mutable std::mutex mutex_;
    mutable std::vector<std::string> tables_;  // temp table per level, "" until made
};

/// Which columns data() keeps: no internal:* but internal:gdal_vsi, and with a cascade also the
/// ids navigation uses to find a row's surviving children and a collection's
/// internal:source_file, as tacoreader's data() does.
bool shown_in_data(std::string_view name, bool cascade);

}  // namespace taco::query
