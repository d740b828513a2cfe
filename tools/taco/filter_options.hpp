// The --bbox/--crs/--geometry-col/--datetime/--time-col/--level/--where options `taco filter`
// and `taco stats` share, and how they narrow a dataset.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

#include "taco/dataset.hpp"

namespace taco::cli {

struct FilterOptions {
    std::string bbox, crs = "EPSG:4326", geometry_col = "auto", datetime, time_col = "auto", where;
    size_t level = 0;

    bool any() const { return !bbox.empty() || !datetime.empty() || !where.empty(); }
    /// Adds the options to `sub`; `level_help` says what --level means for the command.
    void add_to(CLI::App* sub, const std::string& level_help);
    /// `ds` narrowed by --where, then --bbox, then --datetime (QueryError for a malformed box).
    Dataset apply(Dataset ds) const;
};

}  // namespace taco::cli
