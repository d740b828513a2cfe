// Read-ahead of FOLDER `__meta__` tables. Each `__meta__` is a tiny Parquet file, and one DuckDB
// statement per file costs ~0.4 ms whatever its size, while one statement over a list of files
// costs ~0.1 ms more per file. So when navigation keeps missing the children cache at a level, the
// next miss reads the requested `__meta__` together with those of FOLDERs it has seen at that
// level and not read yet: 1, 2, 4, ... 64 files per statement, doubling with each miss, like a
// kernel's read-ahead window. A single walk down one path never reads ahead; a random walk over
// many FOLDERs (a training sampler, an export) soon reads them 64 at a time. READER.md §5.
#pragma once

#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "metadata/result_table.hpp"

namespace taco::query {

/// A table of samples at one level, with the columns navigation reads: where read-ahead looks
/// for FOLDERs (the table a FOLDER was read from, and the children tables read so far).
struct FolderRows {
    std::shared_ptr<const metadata::ResultTable> table;
    size_t level = 0;
    size_t type_col = 0, vsi_col = 0;
    std::optional<size_t> id_col;
};

/// A FOLDER to read: its internal:gdal_vsi and (for messages) its id.
struct FolderRef {
    std::string vsi;
    std::string id;
};

class MetaReadahead {
  public:
    static constexpr size_t kMaxWindow = 64;
    /// Tables of FOLDER rows remembered per level (the oldest are forgotten first), and the
    /// largest one remembered: a remembered table stays in memory until its rows are offered.
    static constexpr size_t kMaxSources = 256;
    static constexpr size_t kMaxSourceRows = 4096;

    /// How many `__meta__` a miss at `level` reads now (1 the first time); doubles the next.
    size_t take_window(size_t level);

    /// Remembers `rows` as a place to find FOLDERs of `rows.level` in (unless it is larger than
    /// kMaxSourceRows: a large table's FOLDERs are found when one of them is read from it).
    void remember(FolderRows rows);

    /// Up to `n` FOLDERs at `from.level` for which `wanted(vsi)` holds: the rows of `from.table`
    /// after `row` (then those before it), then the remembered tables of that level.
    std::vector<FolderRef> candidates(const FolderRows& from, size_t row, size_t n,
                                      const std::function<bool(std::string_view vsi)>& wanted);

  private:
    struct Source {
        FolderRows rows;
        size_t next = 0;  // rows before it were offered already
    };
    std::mutex mutex_;
    std::map<size_t, size_t> window_;
    std::map<size_t, std::deque<Source>> sources_;
};

}  // namespace taco::query
