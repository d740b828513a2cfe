// What every Dataset and DataFrame of one `load` share: the opened container, one DuckDB
// connection holding the level views, and the in-memory copies of the level Parquet bytes.
#pragma once

#include <atomic>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "format/dataset_open.hpp"
#include "format/parquet_footer.hpp"
#include "io/memfd.hpp"
#include "metadata/duckdb_session.hpp"
#include "metadata/result_table.hpp"
#include "query/collection_views.hpp"
#include "query/meta_readahead.hpp"

namespace taco::query {

/// The children tables of recently read FOLDERs, by the FOLDER's gdal_vsi. Tables are immutable
/// and shared, so a hit costs nothing; walking back and forth through a tree reads each
/// `__meta__` once (tacoreader reads it on every `read`).
class ChildrenCache {
  public:
    static constexpr size_t kCapacity = 1024;
    std::shared_ptr<const metadata::ResultTable> find(const std::string& key);
    void put(const std::string& key, std::shared_ptr<const metadata::ResultTable> table);
    /// Whether `key` is cached, without making it the most recent.
    bool contains(const std::string& key);

  private:
    using Entry = std::pair<std::string, std::shared_ptr<const metadata::ResultTable>>;
    std::mutex mutex_;
    std::list<Entry> order_;  // most recent first
    std::unordered_map<std::string, std::list<Entry>::iterator> index_;
};

struct DatasetContext;
struct RealignedLevel;

/// Hashes std::string and std::string_view alike, so maps keyed by string can be searched with
/// a view (no temporary string on the read path).
struct StringHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

/// One input of a concatenated dataset: the dataset it came from and the view it contributed.
struct ConcatPart {
    std::shared_ptr<DatasetContext> ctx;
    std::string view_sql;   // its current view (level 0), in its own names
    bool filtered = false;  // the view is not plain `level0`: deeper levels follow its rows
    /// Per level: its columns as they enter the union, and what its internal:current_id values
    /// are shifted by so that ids stay unique across the parts (internal:parent_id follows).
    std::vector<std::vector<ColumnType>> columns;
    std::vector<int64_t> id_base;
};

/// How the level tables of a concatenated dataset are made from its parts (REFERENCE-API §A13).
struct ConcatPlan {
    std::vector<ConcatPart> parts;
    /// Per level: the columns of the union table, `internal:source_path` last.
    std::vector<std::vector<ColumnType>> columns;
};

struct DatasetContext {
    DatasetContext() = default;
    explicit DatasetContext(metadata::DuckSession session) : db(std::move(session)) {}

    /// A loaded dataset: what was opened. A concatenated one: the first part's collection (with
    /// the pit counts summed), path "<concatenated>", no archive.
    format::OpenedDataset source;
    metadata::DuckSession db;
    /// DuckDB connections run one statement at a time; every use of `db` holds this lock.
    std::mutex db_mutex;
    /// ZIP: the level Parquet bytes, copied out of the archive (DuckDB reads /proc/self/fd/N).
    std::vector<std::unique_ptr<io::MemFd>> level_bytes;
    /// What read_parquet() reads for each level: a file, or /proc/self/fd/N of level_bytes.
    std::vector<std::string> level_files;
    /// Levels read from the metadata cache without a request (remote FOLDER, warm open): checked
    /// against the server before the first statement on them (level_revalidation.hpp).
    std::vector<size_t> unverified_levels;
    /// Columns of each raw level table (before the views add internal:gdal_vsi).
    std::vector<std::vector<ColumnType>> level_columns;
    /// Set for a concatenated dataset.
    std::shared_ptr<const ConcatPlan> concat;
    /// Set for a collection (`.tacocat/`, `__TACOCAT__`): its parts and their id shifts.
    std::shared_ptr<const CollectionParts> parts;
    /// Every archive `internal:gdal_vsi` paths may point into, by VSI root (one per ZIP part).
    std::unordered_map<std::string, std::shared_ptr<io::ByteSource>, StringHash, std::equal_to<>>
        archives;
    /// Guards `archives`, which reads extend with the remote archives they open.
    std::mutex archives_mutex;
    ChildrenCache children;
    /// How navigation reads `__meta__` ahead of the FOLDERs asked for (meta_readahead.hpp).
    MetaReadahead readahead;
    /// load()'s per-query time limit in seconds (0: none), and whether the last query hit it.
    double query_timeout = 0;
    std::atomic<bool> timed_out{false};
    /// load(..., sandbox): DuckDB may read only the level tables and /proc/self/fd copies, so
    /// navigation reads a FOLDER dataset's `__meta__` through an in-memory copy (sandbox.cpp).
    bool sandboxed = false;
    /// The flat views l0..lN are created by the first sql() that names one (flat_views.hpp).
    bool flat_views_defined = false;
    /// Levels whose stored offsets the reference writer misaligned: their table views read the
    /// corrected ones (query/level_offsets.hpp). Found at load.
    std::vector<std::shared_ptr<const RealignedLevel>> realigned_levels;

    const std::string& name() const { return source.vsi_root; }
};

/// The SQL expression of the VSI root of a loaded dataset's rows: its path as a literal, or
/// (collection) the path of each row's part.
std::string root_sql(const DatasetContext& ctx);

/// The first column called `name`, or nullptr.
const ColumnType* find_column(const std::vector<ColumnType>& cols, std::string_view name);
bool has_column(const std::vector<ColumnType>& cols, std::string_view name);

/// The rows readers hide: padding samples and rows without an id (column `id`), as the level
/// views' WHERE clause does.
metadata::ResultTable::HiddenRows padding_rows(size_t id);

/// Appends the files behind `ctx`: its path, or (concatenated) its parts' files in order.
void collect_sources(const DatasetContext& ctx, std::vector<std::filesystem::path>& out);

/// The collections behind `ctx` (those whose `parts` are set): `ctx` itself, or the inputs of a
/// concatenation at any depth, in order.
std::vector<const DatasetContext*> collections_in(const DatasetContext& ctx);

/// Settings every reader connection uses (also the validator's).
void configure_reader_session(metadata::DuckSession& db);

/// The level Parquet files of a dataset as DuckDB reads them.
struct StagedLevels {
    std::vector<std::unique_ptr<io::MemFd>> bytes;  // ZIP: the levels copied out of the archive
    std::vector<std::string> files;                 // a file, or /proc/self/fd/N of `bytes`
    /// Level files whose path is not UTF-8 are read through these (paths/path_anchor.hpp).
    std::vector<std::shared_ptr<const paths::PathAnchor>> anchors;
    /// Level 0's footer, when it parses and its row counts agree: load's checks read it instead
    /// of asking DuckDB, and stage_levels reads it while DuckDB starts on another thread.
    std::optional<format::ParquetFooter> level0_footer;
    /// Rows of levels 1.. (index level - 1) from their footers, nullopt where one does not parse;
    /// empty for a collection index.
    std::vector<std::optional<uint64_t>> level_rows;
};
StagedLevels stage_levels(const format::OpenedDataset& opened);

/// Registers the level tables of `opened` in `session` (a new connection) and creates the views
/// `level{i}_table` (raw), `level{i}` (padding hidden, + internal:gdal_vsi) and `data`
/// (= level0). FormatError when a level is not readable Parquet or lacks a required column.
std::shared_ptr<DatasetContext> make_context(format::OpenedDataset opened, StagedLevels levels,
                                             metadata::DuckSession session);

/// Creates (`replace`: or replaces) the view `{prefix}level{i}_table` of `ctx` in `db` and
/// returns its name: level `i`'s Parquet file (ctx.level_files[i]) as every reader sees it, its
/// offsets corrected when realigned (level_offsets.hpp), a collection's ids shifted, and its
/// FLOAT / DOUBLE columns passed through a function so that DuckDB does not prune with the
/// file's min/max, which leave NaN out (filters then follow DuckDB's own NaN rule).
std::string define_level_table(metadata::DuckSession& db, const DatasetContext& ctx, size_t i,
                               const std::string& prefix, bool replace);

/// Creates `{prefix}level{i}_table` and `{prefix}level{i}` for every level of `ctx` in `db`
/// (which may be another dataset's connection): over its Parquet files for a loaded dataset,
/// over its parts' views (registered as `{prefix}p{k}_...`) for a concatenated one. Without
/// `level_views`, a loaded dataset gets its `_table` views alone: what an unfiltered part of a
/// concatenation is read through (every view is one more statement for DuckDB to bind).
void define_level_views(metadata::DuckSession& db, const DatasetContext& ctx,
                        const std::string& prefix, bool level_views = true);

/// Where part `k` of a concatenation registered under `prefix` has its views: `{prefix}p{k}_`.
std::string part_prefix(const std::string& prefix, size_t k);

/// The views `{prefix}level{i}_table` and `{prefix}level{i}` of a concatenated dataset, whose
/// parts are already registered under `{prefix}p{k}_`.
void define_concat_views(metadata::DuckSession& db, const ConcatPlan& plan, ContainerFormat format,
                         const std::string& prefix);

/// The SQL of part `k`'s rows at `level` as they enter the union (before column selection):
/// its current view at level 0; at deeper levels its raw table, restricted to the children of
/// the rows above when its view is filtered.
std::string concat_part_relation(const ConcatPart& part, size_t k, size_t level,
                                 const std::string& prefix);

/// `SELECT <star>, <gdal_vsi> FROM table WHERE <not padding>` for one level. `root_sql` is the
/// SQL expression of the VSI root: a literal for a loaded dataset, the internal:source_path
/// column for a concatenated one (REFERENCE-API §A10). `url_root`: whether that root is an HTTP
/// URL, whose FOLDER sample names are percent-encoded (vsi_path.hpp); nullopt: per row.
std::string level_view_sql(const std::string& table, const std::vector<ColumnType>& columns,
                           ContainerFormat format, const std::string& root_sql, size_t level,
                           std::optional<bool> url_root);

/// Ids of padding samples start with this (`__TACOPAD__N`, FORMAT.md §4.5); readers hide them.
inline constexpr std::string_view kPaddingPrefix = "__TACOPAD__";

}  // namespace taco::query
