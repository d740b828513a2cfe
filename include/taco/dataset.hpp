// Reading TACO datasets (spec §8.1-§8.2, REFERENCE-API §A2-§A9): `load` detects the container,
// `Dataset` exposes the COLLECTION metadata and a lazy SQL view over the level tables.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "taco/collection.hpp"
#include "taco/dataframe.hpp"
#include "taco/filters.hpp"
#include "taco/stats.hpp"
#include "taco/writer.hpp"

namespace taco {

namespace query {
class Lifetime;
struct DatasetContext;
class Cascade;
}  // namespace query
namespace convert {
struct DatasetAccess;
}

/// One pattern of `taco:pit_schema` (FORMAT.md §5.4): `n` rows and the children's types and ids.
struct PitPattern {
    uint64_t n = 0;
    std::vector<std::string> types;
    std::vector<std::string> ids;
};

/// `taco:pit_schema`: the root row count and type, and per depth d >= 1 (index d-1) its patterns.
struct PitSchema {
    uint64_t root_n = 0;
    std::string root_type;  // "FILE" or "FOLDER"
    std::vector<std::vector<PitPattern>> hierarchy;

    /// Deepest level index (0 for a flat dataset).
    size_t max_depth() const { return hierarchy.size(); }
};

/// One column of `taco:field_schema`: [name, Arrow type string, description].
struct FieldInfo {
    std::string name;
    std::string type;
    std::string description;
};

/// `taco:field_schema` in document order: level key ("level0", ...) -> its columns.
struct LevelFields {
    std::string level;
    std::vector<FieldInfo> fields;
};

/// How concat() treats columns that not every dataset has (REFERENCE-API §A13).
enum class ColumnMode {
    Intersection,  // keep the columns every dataset has (default)
    FillMissing,   // keep every column; NULL where a dataset lacks it
    Strict,        // any difference is a SchemaError listing each dataset's columns
};

/// "intersection", "fill_missing", "strict"; QueryError naming the valid modes otherwise.
ColumnMode parse_column_mode(const std::string& name);

class Dataset;
Dataset concat(const std::vector<Dataset>& datasets, ColumnMode mode);

class Dataset {
  public:
    /// Copies share the open dataset (closing one closes all). There are no move operations: a
    /// "moved-from" Dataset is a copy, still open, never an object whose every call would crash.
    Dataset(const Dataset&) = default;
    Dataset& operator=(const Dataset&) = default;

    // --- COLLECTION.json -----------------------------------------------------------------------
    const std::string& id() const;
    /// `dataset_version`, or "unknown" when the collection has none (as the reference does).
    const std::string& version() const;
    const std::string& description() const;
    const std::string& taco_version() const;
    const std::vector<std::string>& tasks() const;
    const std::vector<std::string>& licenses() const;
    const std::vector<Contact>& providers() const;
    const std::optional<std::string>& title() const;
    const std::optional<std::vector<Contact>>& curators() const;
    const std::optional<std::vector<std::string>>& keywords() const;
    const std::optional<Extent>& extent() const;
    /// Every collection field in typed form (extensions as JSON text).
    const CollectionInfo& info() const;
    /// COLLECTION.json exactly as stored in the dataset.
    const std::string& collection_json() const;
    const PitSchema& pit_schema() const;
    const std::vector<LevelFields>& field_schema() const;

    // --- Container -------------------------------------------------------------------------------
    /// The path given to `load`; "<concatenated>" for the result of concat().
    const std::filesystem::path& path() const;
    /// The files behind the dataset: {path()} for a loaded one, every input of a concatenation.
    std::vector<std::filesystem::path> sources() const;
    ContainerFormat format() const;
    /// Whether the rows are a collection's (loaded through its `.tacocat` / `__TACOCAT__` index,
    /// or a concatenation holding one): format() is then the parts' container, ZIP.
    bool is_collection() const;
    /// A collection's parts that were not found when it was loaded (their paths, in index
    /// order): the index's rows are all there to query, but reading a sample of such a part
    /// raises IoError naming it. Empty for anything else.
    std::vector<std::string> missing_parts() const;
    /// Number of consolidated level tables (views `level0` .. `level{N-1}`).
    size_t level_count() const;

    // --- Lazy SQL ------------------------------------------------------------------------------
    /// A new dataset whose view is `query`, where the table name `data` means this dataset's
    /// view (any spelling: FROM data, JOIN data, sub-queries, CTEs; identifiers like `data_x` and
    /// string literals are left alone). The views `level0`..`levelN` stay available. Nothing
    /// runs here: errors (unknown column, bad syntax) surface as QueryError when rows or columns
    /// are asked for. The new dataset shares this one's DuckDB connection.
    /// `EXPLAIN [ANALYZE] ...` gives DuckDB's plan (columns explain_key, explain_value) as its
    /// data(); such a dataset cannot be queried further (QueryError from its sql()).
    Dataset sql(const std::string& query) const;
    /// The dataset whose view is `level{index}` (padding hidden, with internal:gdal_vsi).
    /// NavigationError when the level does not exist.
    Dataset level(size_t index) const;
    /// The SQL text of this dataset's view (self-contained: `data` already resolved).
    const std::string& query() const;

    // --- Space and time (spec §8.2; implemented in src/spatial/) ------------------------------
    /// The samples whose geometry intersects the box (boundaries count), as a new lazy view
    /// that chains with sql() and the other filters and survives concat().
    ///  - The test is exact (GEOS through OGR, not bounding boxes) and runs in the geometry's own
    ///    CRS: the box, given in `crs`, is carried there (edges densified). A geometry column's
    ///    CRS is its sibling `<prefix>:crs` column (`istac:crs` for `istac:geometry`); centroids
    ///    (`*:centroid`) and columns without a sibling CRS are EPSG:4326.
    ///  - In a geographic `crs`, minx > maxx is a box crossing the antimeridian.
    ///  - `geometry_col` "auto": istac:geometry > stac:centroid > istac:centroid.
    ///  - `level` > 0 (cascade): keeps the rows of this view with at least one descendant at
    ///    `level` that matches; read() below them lists only matching descendants (and their
    ///    ancestors). data() then also shows internal:current_id and internal:parent_id.
    /// Errors (QueryError, at once): NaN/infinite or reversed bounds, an unknown CRS, a level the
    /// dataset does not have, no geometry column (the message lists the columns there are), a
    /// column that is not binary. When rows are fetched: a geometry that is not WKB or a row
    /// with an unknown CRS (naming the sample).
    Dataset filter_bbox(double minx, double miny, double maxx, double maxy,
                        const std::string& geometry_col = "auto", size_t level = 0,
                        const std::string& crs = "EPSG:4326") const;
    /// The samples whose time falls in `range` (inclusive, microseconds), as a new lazy view.
    /// `time_col` "auto": istac:time_start > stac:time_start. When the chosen column is a
    /// `<prefix>:time_start` whose `<prefix>:time_end` exists, a sample is the interval
    /// [start, end] (end NULL = an instant) and matches when it overlaps the range; otherwise it
    /// is the instant in the column. Timestamp, date, integer (microseconds) and text columns
    /// (cast; text that is not a time never matches) are accepted. `level` as filter_bbox.
    Dataset filter_datetime(const TimeRange& range, const std::string& time_col = "auto",
                            size_t level = 0) const;
    /// The same with `range` parsed by parse_time_range ("2023-01-01/2023-06-30", "../2023",
    /// "2023-05-01T10:00:00Z").
    Dataset filter_datetime(const std::string& range, const std::string& time_col = "auto",
                            size_t level = 0) const;

    /// Statistics of `bands` pooled over the rows of this view (after sql() and filters), from
    /// their `geotiff:stats` (implemented in src/stats/). `level` > 0 pools the descendants at
    /// that level of this view's rows (a cascade's survivors only), under the level-(level-1)
    /// sample `id` when given; at level 0 a given `id` picks that one sample. Pooling, per band:
    /// min/max global; mean weighted by valid pixels (stac:tensor_shape H x W x valid% / 100,
    /// or valid% alone without a shape); std pooled (within-sample variance plus the spread of
    /// the means); p25/p50/p75/p95 from the pixel-weighted mixture of the samples' piecewise-
    /// linear distributions (taco/stats.hpp pooled_quantile); categorical rows (any length but
    /// 9): the pixel-weighted mean of the probability vectors.
    /// QueryError: level missing, no geotiff:stats column (lists the columns), no band given,
    /// a band out of range (naming a sample), no row with values. SchemaError: rows whose
    /// layouts differ (naming both samples), a column that is not list<list<number>>.
    std::vector<BandSummary> band_stats(const std::vector<size_t>& bands, size_t level = 0,
                                        const std::string& id = "") const;

    /// Runs the view: every row, columns `internal:*` dropped except `internal:gdal_vsi`.
    DataFrame data() const;
    /// Runs the view keeping every column.
    DataFrame data_raw() const;
    /// Runs the view keeping every column and hands its rows to `batch` in order, a DuckDB chunk
    /// (about 2,048 rows) at a time, as they are produced: memory holds one batch, not the whole
    /// result (what `taco sql --json` prints 10 million rows with). The connection stays busy
    /// until the last call returns. QueryError as data_raw(); an exception thrown by `batch`
    /// stops the query and propagates.
    void stream_raw(const std::function<void(const DataFrame& batch)>& batch) const;
    /// Column names and types of the view, without running it (DuckDB binds the query only).
    std::vector<ColumnType> columns() const;
    /// Number of rows of the view.
    uint64_t count() const;
    /// Stops the query that data(), data_raw(), count() or columns() is running on this
    /// dataset's DuckDB session (shared by every view of the same load), from another thread:
    /// that call fails with QueryError soon after. For Ctrl-C in bindings and user cancel
    /// buttons; harmless when nothing runs.
    void interrupt() const;

    /// Closes this dataset (issue 18 item 11): every later read of it, of the views made from
    /// it (sql(), level(), the filters, concat()) and of the DataFrames taken from any of them
    /// (read, read_bytes, byte_size, stream_bytes, position_of, and their children's) throws
    /// ClosedError, the same error for each. The collection accessors (id(), ...) still answer;
    /// the views this one was made from stay open. Copies of a Dataset share its state. Safe to
    /// call twice and from any thread: a read already running on another thread completes.
    void close() const;
    /// True after close() of this dataset or of one it was made from.
    bool closed() const;

    /// Internal: built by `load`. `level` is the hierarchy level of the view's rows; `base` says
    /// the view is exactly `level{level}` (which data() can fetch without SQL expressions).
    Dataset(std::shared_ptr<query::DatasetContext> context, std::string view_sql, size_t level,
            bool base = false);

  private:
    friend Dataset concat(const std::vector<Dataset>& datasets, ColumnMode mode);
    std::string compose(const std::string& query) const;  // sql(): the new view's SQL text
    friend struct convert::DatasetAccess;  // export reads the context and the view's level
    DataFrame fetch(bool raw) const;
    DataFrame fetch_level(bool raw) const;
    /// A view over this one with `where` (level 0) or the cascade `cascade` (deeper levels).
    Dataset filtered(const std::string& where, size_t level, const char* what) const;

    std::shared_ptr<query::DatasetContext> ctx_;
    std::string view_sql_;
    size_t level_ = 0;
    bool base_ = false;
    std::string explain_query_;  // an EXPLAIN view: the statement as the user wrote it
    /// Set after a cascade filter: the surviving rows of the deeper levels, for navigation.
    std::shared_ptr<const query::Cascade> cascade_;
    /// Open or closed, shared with the views and DataFrames derived from this one.
    std::shared_ptr<query::Lifetime> life_;
    /// A view derived from this dataset: its lifetime ends with this one's.
    Dataset derived(std::string view_sql, size_t level, bool base = false) const;
};

/// Opens a dataset, detecting its container as the reference does (REFERENCE-API §A3):
/// `*.tacozip` / `*.zip` -> ZIP (read through its TACO_HEADER, nothing extracted); a directory
/// with COLLECTION.json -> FOLDER; a collection index (a `.tacocat` folder, a `__TACOCAT__`
/// file, or a directory holding either) -> the union of its parts, in part order, read through
/// the index (one Parquet file per level; parts are opened, not read); LoadOptions::base_path
/// (collections only, spec §8.1) is the directory of the parts when they are not beside the
/// index. Remote locations (`https://`, `s3://`, ..., GDAL `/vsi.../`) load the same way
/// (taco/remote.hpp). Legacy v1 files (`.taco`, `.tortilla`, their `.NNNN.part.` series) load
/// read-only as their v1 levels (taco/legacy.hpp).
/// Errors: IoError (missing or unreadable path, a missing part), FormatError (not a valid
/// dataset, an index range past a part's end; the message names the file and what is missing
/// or malformed), SchemaError (invalid taco:pit_schema).
/// A Dataset belongs to the process that loaded it: in a fork() child, destroying it is safe
/// but any query throws QueryError saying to load() again there (READER.md §11).
Dataset load(const std::filesystem::path& path);

/// Memory limit of a sandboxed load when none is given.
inline constexpr const char* kSandboxMemoryLimit = "1GB";

/// How `load` sets up the dataset's DuckDB session (USER-GUIDE "Security").
struct LoadOptions {
    /// DuckDB may read only the dataset's own files (no read_csv('/etc/passwd'), glob('/etc/*'),
    /// ATTACH or COPY TO), extensions beyond the built-in ones cannot be loaded, settings are
    /// locked, and memory is capped (memory_limit, default kSandboxMemoryLimit).
    bool sandbox = false;
    /// Seconds a query may run before it is interrupted (QueryError); 0 = no limit.
    double timeout = 0;
    /// DuckDB memory_limit, e.g. "512MB"; empty = DuckDB's default (or the sandbox's).
    std::string memory_limit;
    /// Collections only (spec §8.1): the directory of the parts when they are not beside the
    /// index; empty = beside it. A FormatError for anything but a collection index.
    std::string base_path;
};
Dataset load(const std::filesystem::path& path, const LoadOptions& options);

/// One dataset made of several (spec §8.4, REFERENCE-API §A13): level i of the result is the
/// union of level i of every input, in input order, with nothing copied (the inputs' views stay
/// lazy). Level 0 of each input is its current view, so sql() filters apply; deeper levels keep
/// only the children of the rows it kept. Every row gains `internal:source_path` (the file it
/// came from) and its `internal:gdal_vsi` points there; `internal:current_id`/`parent_id` are
/// shifted so they stay unique across inputs (tacoreader leaves them colliding). Metadata is the
/// first input's, with the `taco:pit_schema` counts summed.
/// Errors: QueryError for fewer than 2 datasets or a view of a level other than 0; SchemaError
/// when the containers differ (zip/folder), the PIT structures differ, a column navigation needs
/// is missing from a view, a column has different types, or (Strict) the columns differ.
Dataset concat(const std::vector<Dataset>& datasets, ColumnMode mode = ColumnMode::Intersection);

}  // namespace taco
