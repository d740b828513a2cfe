#include "query/level_offsets.hpp"

#include <algorithm>
#include <numeric>
#include <optional>
#include <string_view>

#include "format/zip_local_header.hpp"
#include "io/metadata_cache.hpp"
#include "io/remote_source.hpp"
#include "io/trace.hpp"
#include "log/messages.hpp"
#include "metadata/result_table.hpp"
#include "metadata/scalar_udf.hpp"

namespace taco::query {
namespace {

using metadata::quote_literal;

// The folder a relative path sits in, with its trailing '/': "europe/" for "europe/item_0" and
// for a FOLDER's "europe/item_0/". Empty when the path has no folder.
std::string_view folder_of(std::string_view relative_path) {
    while (!relative_path.empty() && relative_path.back() == '/') relative_path.remove_suffix(1);
    const size_t slash = relative_path.rfind('/');
    return slash == std::string_view::npos ? std::string_view()
                                           : relative_path.substr(0, slash + 1);
}

// The ZIP entries a row's offset may point at: a FILE's data or a FOLDER's `__meta__`.
std::vector<std::string> entry_names(std::string_view relative_path) {
    std::string path(relative_path);
    while (!path.empty() && path.back() == '/') path.pop_back();
    return {"DATA/" + path, "DATA/" + path + "/__meta__"};
}

// Consecutive rows of one folder (of one part, in a collection).
struct Run {
    std::string_view folder;
    std::string_view part;  // a collection's internal:source_file; empty for a single dataset
    size_t first = 0;       // its first row in the table
    size_t count = 0;
    size_t segment = 0;  // the first row of its part: the writer's column starts there
    size_t pasted = 0;   // the row its first row's offsets were written into (sorted order)
};

// The rows' folders as runs, in table order, from the relative paths in column 0 of `t` (and
// a collection's part names in column 1), and whether each part's folders are in sorted order
// (then no writer could have misaligned them). nullopt when a row has no folder or a part's
// rows are not consecutive: the writer's order cannot be known.
std::optional<std::vector<Run>> folder_runs(const metadata::ResultTable& t, bool collection,
                                            bool& sorted) {
    std::vector<std::string_view> parts;
    if (collection) {
        parts.resize(t.rows());
        size_t named = 0;
        t.for_each_string(1, [&](size_t r, std::string_view part) {
            parts[r] = part;
            ++named;
        });
        if (named != t.rows()) return std::nullopt;
    }
    std::vector<Run> runs;
    std::vector<std::string_view> parts_seen;
    sorted = true;
    size_t seen = 0;
    bool known = true;
    t.for_each_string(0, [&](size_t r, std::string_view path) {
        ++seen;
        const std::string_view folder = folder_of(path);
        const std::string_view part = collection ? parts[r] : std::string_view();
        if (!runs.empty() && runs.back().folder == folder && runs.back().part == part) {
            ++runs.back().count;
            return;
        }
        if (folder.empty()) known = false;
        size_t segment = r;
        if (!runs.empty() && runs.back().part == part) {
            segment = runs.back().segment;
            if (folder < runs.back().folder) sorted = false;
        } else if (collection) {
            if (std::find(parts_seen.begin(), parts_seen.end(), part) != parts_seen.end())
                known = false;  // a part's rows in two places
            parts_seen.push_back(part);
        }
        runs.push_back({folder, part, r, 1, segment, 0});
    });
    if (seen != t.rows() || !known) return std::nullopt;
    return runs;
}

// Where the writer put the offsets of `run`'s first row: after every row of its part in a
// folder sorted before its own, and after its folder's rows in earlier runs.
size_t pasted_row(const std::vector<Run>& runs, const Run& run) {
    size_t at = run.segment;
    for (const Run& other : runs) {
        if (other.segment != run.segment) continue;
        if (other.folder < run.folder || (other.folder == run.folder && other.first < run.first))
            at += other.count;
    }
    return at;
}

// Every row of `columns` of a level file, in file order.
std::shared_ptr<const metadata::ResultTable> scan_level(DatasetContext& ctx, size_t i,
                                                        const std::vector<std::string>& columns) {
    const std::string& file = ctx.level_files[i];
    if (auto t = metadata::ResultTable::scan_parquet(ctx.db, file, columns)) return t;
    std::string select;
    for (const std::string& c : columns)
        select += (select.empty() ? "" : ", ") + metadata::quote_identifier(c);
    return metadata::ResultTable::fetch(
        ctx.db, "SELECT " + select + " FROM read_parquet(" + quote_literal(file) + ")");
}

// Whether the offset stored in row `y` (`stored`) points at the entry of row `x` (the one the
// writer would have pasted there) rather than at row y's own, read from the local header.
bool points_at_other_row(const io::ByteSource& archive, const metadata::ResultTable& paths,
                         int64_t stored, size_t x, size_t y) {
    if (stored < 0) return false;
    std::vector<std::string> names = entry_names(paths.get_string(x, 0));
    for (std::string& own : entry_names(paths.get_string(y, 0))) names.push_back(std::move(own));
    const auto found = format::local_header_name_at(archive, static_cast<uint64_t>(stored), names);
    return found && *found < 2;
}

// The stored internal:offset of the rows `rows` of level `i`, by row; rows with none are left out.
std::vector<std::pair<size_t, int64_t>> stored_offsets(DatasetContext& ctx, size_t i,
                                                       const std::vector<size_t>& rows) {
    std::string list;
    for (size_t r : rows) list += (list.empty() ? "" : ", ") + std::to_string(r);
    const auto t = metadata::ResultTable::fetch(
        ctx.db, "SELECT CAST(file_row_number AS BIGINT), \"internal:offset\" FROM read_parquet(" +
                    quote_literal(ctx.level_files[i]) +
                    ", file_row_number = true) WHERE file_row_number IN (" + list +
                    ") AND \"internal:offset\" IS NOT NULL");
    std::vector<std::pair<size_t, int64_t>> out;
    for (size_t r = 0; r < t->rows(); ++r)
        out.emplace_back(static_cast<size_t>(t->get_int(r, 0)), t->get_int(r, 1));
    return out;
}

// The archive a run's rows point into: the dataset's, or its part's in a collection (nullptr
// when that part is missing or remote, not opened at load).
const io::ByteSource* archive_of(const DatasetContext& ctx, const Run& run) {
    if (!ctx.parts) return ctx.source.archive.get();
    const CollectionParts& parts = *ctx.parts;
    for (size_t k = 0; k < parts.files.size() && k < parts.sources.size(); ++k)
        if (parts.files[k] == run.part) return parts.sources[k].get();
    return nullptr;
}

// What the local headers said about each level of a remote archive at an earlier load of the
// same version of the file (the metadata cache, keyed by its URL and identity), so that a warm
// open reads no sample bytes; and what this load found, stored when it had to look.
class Verdicts {
  public:
    explicit Verdicts(const DatasetContext& ctx)
        : remote_(ctx.parts ? nullptr
                            : dynamic_cast<const io::RemoteSource*>(ctx.source.archive.get())) {
        if (!remote_ || !io::metadata_cache_enabled()) return;
        key_ = remote_->location().vsi + "#level-offsets";
        const auto cached = io::cache_lookup(key_, remote_->identity());
        if (!cached || cached->size() != 1) return;
        known_ = true;
        for (char c : (*cached)[0].second) misaligned_.push_back(static_cast<size_t>(c));
    }
    /// The verdict on level `i` at an earlier load; nullopt when this load must look.
    std::optional<bool> earlier(size_t i) const {
        if (!known_) return std::nullopt;
        return std::find(misaligned_.begin(), misaligned_.end(), i) != misaligned_.end();
    }
    void found(size_t i, bool misaligned) {
        looked_ = true;
        if (misaligned) misaligned_.push_back(i);
    }
    /// Stores what this load found, once every level was looked at.
    void save() const {
        if (!remote_ || key_.empty() || known_ || !looked_) return;
        std::string levels;
        for (size_t i : misaligned_) levels.push_back(static_cast<char>(i));
        io::cache_store(key_, remote_->identity(), {{0, levels}});
    }

  private:
    const io::RemoteSource* remote_;
    std::string key_;
    bool known_ = false;
    bool looked_ = false;
    std::vector<size_t> misaligned_;
};

// Level `i` realigned, or nullptr when it is in order or cannot be decided.
std::shared_ptr<const RealignedLevel> realign(DatasetContext& ctx, size_t i, Verdicts& verdicts) {
    // The paths alone first: the whole cost when the folders are in sorted order.
    const bool collection = ctx.parts != nullptr;
    std::vector<std::string> columns = {"internal:relative_path"};
    if (collection) columns.push_back("internal:source_file");
    const auto paths = scan_level(ctx, i, columns);
    bool sorted = true;
    std::optional<std::vector<Run>> runs = folder_runs(*paths, collection, sorted);
    if (!runs || sorted) return nullptr;
    // Not in sorted order: the rows of the first and the last folder found out of order would
    // have moved. Both must point at the samples the misalignment predicts.
    const Run* first = nullptr;
    const Run* last = nullptr;
    for (size_t k = 1; k < runs->size(); ++k) {
        const Run& run = (*runs)[k];
        if (run.segment == (*runs)[k - 1].segment && run.folder < (*runs)[k - 1].folder) {
            if (!first) first = &run;
            last = &run;
        }
    }
    if (const std::optional<bool> earlier = verdicts.earlier(i)) {
        if (!*earlier) return nullptr;
    } else {
        const size_t first_at = pasted_row(*runs, *first);
        const size_t last_at = pasted_row(*runs, *last);
        const auto evidence = stored_offsets(ctx, i, {first_at, last_at});
        bool misaligned = true;
        for (const auto& [run, at] : {std::pair(first, first_at), std::pair(last, last_at)}) {
            const auto it = std::find_if(evidence.begin(), evidence.end(),
                                         [at = at](const auto& o) { return o.first == at; });
            const io::ByteSource* archive = archive_of(ctx, *run);
            misaligned = misaligned && it != evidence.end() && archive &&
                         points_at_other_row(*archive, *paths, it->second, run->first, at);
        }
        verdicts.found(i, misaligned);
        if (!misaligned) return nullptr;
    }
    // Misaligned: each folder's rows take the values written where the sorted order put them.
    std::vector<Run*> order;
    for (Run& run : *runs) order.push_back(&run);
    std::stable_sort(order.begin(), order.end(), [](const Run* a, const Run* b) {
        return a->segment != b->segment ? a->segment < b->segment : a->folder < b->folder;
    });
    size_t segment = SIZE_MAX;
    size_t at = 0;
    for (Run* run : order) {
        if (run->segment != segment) segment = at = run->segment;
        run->pasted = at;
        at += run->count;
    }
    const auto stored = scan_level(ctx, i, {"internal:offset", "internal:size"});
    if (stored->rows() != paths->rows()) return nullptr;
    auto offsets = std::make_shared<std::vector<int64_t>>(stored->rows());
    auto sizes = std::make_shared<std::vector<int64_t>>(stored->rows());
    auto out = std::make_shared<RealignedLevel>();
    out->level = i;
    for (const Run& run : *runs) {
        for (size_t j = 0; j < run.count; ++j) {
            const size_t from = run.pasted + j;
            if (stored->is_null(from, 0) || stored->is_null(from, 1)) return nullptr;
            (*offsets)[run.first + j] = stored->get_int(from, 0);
            (*sizes)[run.first + j] = stored->get_int(from, 1);
        }
        if (run.pasted != run.first) out->moved += run.count;
    }
    out->offsets = std::move(offsets);
    out->sizes = std::move(sizes);
    return out;
}

bool is_int64(const std::vector<ColumnType>& cols, std::string_view name) {
    const ColumnType* c = find_column(cols, name);
    return c && c->type.id() == TypeId::Int64;
}

}  // namespace

void find_misaligned_levels(DatasetContext& ctx) {
    const format::OpenedDataset& src = ctx.source;
    if (src.format != ContainerFormat::Zip || !src.legacy_folders.empty()) return;
    if (ctx.parts ? ctx.parts->files.empty() : !src.archive) return;
    Verdicts verdicts(ctx);
    for (size_t i = 1; i < ctx.level_files.size(); ++i) {
        const std::vector<ColumnType>& cols = ctx.level_columns[i];
        const ColumnType* path = find_column(cols, "internal:relative_path");
        // (A column named file_row_number would clash with the scan's row numbers.)
        if (!path || path->type.id() != TypeId::String || !is_int64(cols, "internal:offset") ||
            !is_int64(cols, "internal:size") || has_column(cols, "file_row_number"))
            continue;
        io::TraceScope trace("load(): level offsets in order");
        auto level = realign(ctx, i, verdicts);
        if (!level) continue;
        log::emit(LogLevel::Warning, "load",
                  ctx.name() + ": " + src.levels[i].name + ": " + std::to_string(level->moved) +
                      " rows carry the internal:offset/size of other rows, as tacotoolbox "
                      "writes them when folder ids are not in sorted order (FORMAT.md §4.3); "
                      "their views read each sample's own (taco validate reports the file, taco "
                      "export writes a corrected copy)");
        ctx.realigned_levels.push_back(std::move(level));
    }
    verdicts.save();
}

const RealignedLevel* realigned(const DatasetContext& ctx, size_t i) {
    for (const auto& level : ctx.realigned_levels)
        if (level->level == i) return level.get();
    return nullptr;
}

std::string realigned_level_relation(metadata::DuckSession& db, const DatasetContext& ctx, size_t i,
                                     const std::string& prefix) {
    const RealignedLevel& level = *realigned(ctx, i);
    const std::string name = "__taco_" + prefix + "level" + std::to_string(i);
    metadata::register_int64_lookup(db, name + "_offset", level.offsets);
    metadata::register_int64_lookup(db, name + "_size", level.sizes);
    return "(SELECT * EXCLUDE (file_row_number) REPLACE (" + name +
           "_offset(file_row_number) AS \"internal:offset\", " + name +
           "_size(file_row_number) AS \"internal:size\") FROM read_parquet(" +
           quote_literal(ctx.level_files[i]) + ", file_row_number = true))";
}

}  // namespace taco::query
