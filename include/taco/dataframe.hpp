// DataFrame: the materialized rows of a query over a TACO dataset, with typed column access and
// hierarchical navigation (spec §8.3, REFERENCE-API §A10). Copies are cheap and share the rows;
// a DataFrame stays usable after the Dataset it came from is gone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "taco/value.hpp"
#include "taco/writer.hpp"

namespace taco {

namespace query {
struct DataFrameImpl;
struct FileRange;
}  // namespace query

class DataFrame;

/// What `DataFrame::read` returns: the GDAL path of a FILE sample, or the children of a FOLDER.
using ReadResult = std::variant<std::string, DataFrame>;

class DataFrame {
  public:
    /// An empty frame (no rows, no columns).
    DataFrame();
    /// Copies share the rows. There are no move operations: a "moved-from" frame is a copy, still
    /// the same rows, never an object whose every call would crash.
    DataFrame(const DataFrame&) = default;
    DataFrame& operator=(const DataFrame&) = default;

    size_t rows() const;
    size_t columns() const;
    /// Column names and types, in result order. Types are the TACO value types; DuckDB types with
    /// no TACO equivalent were cast when the rows were fetched (see docs/READER.md).
    const std::vector<ColumnType>& schema() const;
    std::vector<std::string> column_names() const;
    /// Index of the first column called `name`.
    std::optional<size_t> column_index(std::string_view name) const;
    bool has_column(std::string_view name) const { return column_index(name).has_value(); }

    /// Hierarchy level of these rows: 0 for a dataset view, +1 per `read` of a FOLDER.
    size_t level() const;
    /// Container of the dataset the rows come from.
    ContainerFormat format() const;

    // --- Cells. `row` < rows() and `col` < columns(), else std::out_of_range. -------------------
    bool is_null(size_t row, size_t col) const;
    /// Any cell as a Value (lists included). Slower than the typed getters below.
    Value value(size_t row, size_t col) const;
    /// The cell of the first column called `column`; std::out_of_range when there is none.
    Value value(size_t row, std::string_view column) const;
    /// Typed getters: the column type must match (Bool; Int32/Int64/Timestamp; Float32/Float64;
    /// String/Binary), else SchemaError. A null cell gives false / 0 / 0.0 / "".
    bool get_bool(size_t row, size_t col) const;
    int64_t get_int(size_t row, size_t col) const;
    double get_double(size_t row, size_t col) const;
    /// A view into the frame's storage, valid as long as any copy of this DataFrame lives.
    std::string_view get_string(size_t row, size_t col) const;

    // --- Navigation (needs the columns `id`, `type` and `internal:gdal_vsi`). -----------------
    /// Row of the first sample whose id is `id` (hash lookup, index built on first use).
    /// NavigationError naming the id when there is none.
    size_t position_of(std::string_view id) const;
    /// FILE -> its GDAL VSI path; FOLDER -> a DataFrame of its children (read from the folder's
    /// `__meta__`, padding hidden, with their own `internal:gdal_vsi`). Out-of-range positions
    /// (negative included) and unknown ids raise NavigationError with the valid range or the id.
    ReadResult read(int64_t position) const;
    ReadResult read(std::string_view id) const;
    /// The same, calling `before_blocking` once just before the read waits on anything but
    /// memory: a FOLDER's children (its `__meta__`), a FOLDER dataset's file checks (file
    /// system calls), or building the id index on the first read by id. A FILE row of a ZIP
    /// (local or remote) is answered from memory and never calls it. For a caller holding a
    /// lock other threads need: the Python bindings release the GIL there instead of around
    /// every read, which cost as much as the read itself (docs/READER.md §10.1).
    ReadResult read(int64_t position, const std::function<void()>& before_blocking) const;
    ReadResult read(std::string_view id, const std::function<void()>& before_blocking) const;
    /// read() of a FILE row that is answered from memory (a ZIP member, local or remote: its
    /// path is text), without the copy: the path as a view into this frame's rows, valid while
    /// any copy of the frame lives. nullopt where read() would do more: a FOLDER's children, a
    /// FOLDER dataset's file checks, the first lookup by id (it builds the index). Throws as
    /// read() does for a bad position, an unknown id, a closed dataset or a broken row. For
    /// callers that copy the path anyway (the Python bindings make a str of it straight away).
    std::optional<std::string_view> file_path_in_memory(int64_t position) const;
    std::optional<std::string_view> file_path_in_memory(std::string_view id) const;
    /// The exact bytes of a FILE sample, straight from the container. NavigationError for a FOLDER.
    std::string read_bytes(int64_t position) const;
    std::string read_bytes(std::string_view id) const;
    /// Size in bytes of a FILE sample (no data is read).
    uint64_t byte_size(int64_t position) const;
    uint64_t byte_size(std::string_view id) const;
    /// Streams a FILE sample's bytes to `sink` in pieces of at most `piece` bytes (for samples too
    /// large to hold in memory). Returns the number of bytes delivered.
    uint64_t stream_bytes(int64_t position, const std::function<void(std::string_view)>& sink,
                          size_t piece = size_t{4} << 20) const;

    // --- Internal: for Dataset, navigation and the Python bindings (their types are declared in
    // src/query/, not in this API). -------------------------------------------------------------
    explicit DataFrame(std::shared_ptr<const query::DataFrameImpl> impl);
    const query::DataFrameImpl& impl() const { return *impl_; }
    /// Where a FILE sample's bytes lie (source, offset, size, query/navigation.hpp), checked as
    /// read_bytes checks it, without reading them: the Python bindings read straight into
    /// `bytes` objects, many at once on native threads.
    query::FileRange byte_range(int64_t position) const;

  private:
    size_t checked_position(int64_t position) const;
    std::shared_ptr<const query::DataFrameImpl> impl_;
};

}  // namespace taco
