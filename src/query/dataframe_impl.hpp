// The state behind a taco::DataFrame: the rows (DuckDB chunks), where they sit in the hierarchy,
// and the lazily built id index.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>
#include <vector>

#include "metadata/result_table.hpp"
#include "query/dataset_context.hpp"
#include "query/lifetime.hpp"

namespace taco::query {

class Cascade;

struct DataFrameImpl {
    DataFrameImpl(std::shared_ptr<DatasetContext> context,
                  std::shared_ptr<const metadata::ResultTable> rows, size_t level);

    std::shared_ptr<DatasetContext> ctx;  // null for an empty DataFrame
    std::shared_ptr<const metadata::ResultTable> table;
    size_t level = 0;
    /// Set below a cascade filter: read() lists only the surviving children (query/cascade.hpp).
    std::shared_ptr<const Cascade> cascade;
    /// The lifetime of the Dataset the rows came from (null: not from a dataset); reads of the
    /// samples refuse once it is closed, and children read from here share it.
    std::shared_ptr<const Lifetime> life;
    // Columns navigation uses, resolved once: the first `id` and `type`, the last gdal_vsi.
    std::optional<size_t> id_col, type_col, vsi_col;

    /// Row of the first non-null id equal to `id`, or nullopt. Builds the index on first use.
    std::optional<size_t> find_id(std::string_view id) const;
    /// Whether find_id() has its index (then a lookup is a few probes, no O(rows) build).
    bool index_ready() const { return index_built_.load(std::memory_order_acquire); }

  private:
    void build_index() const;
    mutable std::once_flag index_once_;
    mutable std::atomic<bool> index_built_{false};
    // Open addressing; a slot holds (32-bit hash << 32 | row), all ones when free. The hash part
    // settles almost every probe without touching the id cell, which is a cache miss away.
    mutable std::vector<uint64_t> index_;
};

}  // namespace taco::query
