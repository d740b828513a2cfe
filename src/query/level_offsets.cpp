#include "query/level_offsets.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <string_view>

#include "format/zip_local_header.hpp"
#include "io/location.hpp"
#include "io/metadata_cache.hpp"
#include "io/remote_source.hpp"
#include "io/trace.hpp"
#include "log/messages.hpp"
#include "metadata/result_table.hpp"
#include "metadata/scalar_udf.hpp"
#include "model/join.hpp"
#include "query/collection_views.hpp"
#include "taco/errors.hpp"

namespace taco::query {
namespace {

using metadata::quote_literal;

// A path without its trailing '/' (a FOLDER's relative path ends in one).
std::string_view trimmed(std::string_view path) {
    while (!path.empty() && path.back() == '/') path.remove_suffix(1);
    return path;
}

// The order tacotoolbox sorts folders in: their paths with a trailing '/' ("DATA/a-b/" before
// "DATA/a/", as '-' < '/'), compared without making the strings.
bool folder_less(std::string_view a, std::string_view b) {
    const size_t common = std::min(a.size(), b.size());
    const int c = a.substr(0, common).compare(b.substr(0, common));
    if (c != 0 || a.size() == b.size()) return c < 0;
    const char next_a = a.size() > common ? a[common] : '/';
    const char next_b = b.size() > common ? b[common] : '/';
    if (next_a != next_b)
        return static_cast<unsigned char>(next_a) < static_cast<unsigned char>(next_b);
    return a.size() < b.size();  // one is the other plus "/...": the shorter sorts first
}

// The ZIP entries a row's offset may point at: a FILE's data or a FOLDER's `__meta__`.
std::vector<std::string> entry_names(std::string_view relative_path) {
    const std::string path(trimmed(relative_path));
    return {"DATA/" + path, "DATA/" + path + "/__meta__"};
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

// The folders whose children make a level: the FOLDER rows of the level above, in row order,
// each with its path (level 0: its id) and, in a collection, its part. PIT makes every FOLDER of
// a level hold the same number of children, written in the FOLDERs' order: FOLDER k's children
// are rows [k n, (k + 1) n) of the level.
struct Folders {
    std::shared_ptr<const metadata::ResultTable> table;  // owns the strings below
    std::vector<std::string_view> paths;                 // trimmed
    std::vector<std::string_view> parts;                 // empty for a single dataset
    std::vector<size_t> segment;  // the first FOLDER of each one's part: its own sort starts there
};

std::optional<Folders> folders_above(DatasetContext& ctx, size_t i) {
    const std::string key = i == 1 ? "id" : "internal:relative_path";
    const ColumnType* column = find_column(ctx.level_columns[i - 1], key);
    if (!column || column->type.id() != TypeId::String ||
        !has_column(ctx.level_columns[i - 1], "type"))
        return std::nullopt;
    std::vector<std::string> columns = {key, "type"};
    if (ctx.parts) columns.push_back("internal:source_file");
    Folders out;
    out.table = scan_level(ctx, i - 1, columns);
    const metadata::ResultTable& t = *out.table;
    // One pass per column; a NULL cell (a row without a path, type or part) is left out by
    // for_each_string, so every column must have given all its rows.
    std::vector<bool> folder(t.rows());
    size_t types = 0, paths = 0, parts = 0;
    t.for_each_string(1, [&](size_t r, std::string_view type) {
        folder[r] = type == "FOLDER";
        ++types;
    });
    t.for_each_string(0, [&](size_t r, std::string_view path) {
        if (folder[r]) out.paths.push_back(trimmed(path));
        ++paths;
    });
    if (ctx.parts) {
        t.for_each_string(2, [&](size_t r, std::string_view part) {
            if (folder[r]) out.parts.push_back(part);
            ++parts;
        });
    }
    if (types != t.rows() || paths != t.rows() || (ctx.parts && parts != t.rows()))
        return std::nullopt;
    out.segment.resize(out.paths.size());
    for (size_t k = 0; k < out.paths.size(); ++k) {
        const bool same_part = k > 0 && (out.parts.empty() || out.parts[k] == out.parts[k - 1]);
        out.segment[k] = same_part ? out.segment[k - 1] : k;
    }
    return out;
}

// Where the writer put FOLDER k's children's offsets: at its rank in its part's sorted order.
size_t rank_of(const Folders& f, size_t k) {
    size_t rank = f.segment[k];
    for (size_t j = f.segment[k]; j < f.paths.size() && f.segment[j] == f.segment[k]; ++j)
        if (folder_less(f.paths[j], f.paths[k]) || (f.paths[j] == f.paths[k] && j < k)) ++rank;
    return rank;
}

// Whether the offset stored in row `y` (`stored`) points at the entry of row `x` (the one the
// writer would have pasted there) rather than at row y's own, read from the local header.
bool points_at_other_row(const io::ByteSource& archive, std::string_view x_path,
                         std::string_view y_path, int64_t stored) {
    if (stored < 0) return false;
    std::vector<std::string> names = entry_names(x_path);
    for (std::string& own : entry_names(y_path)) names.push_back(std::move(own));
    const auto found = format::local_header_name_at(archive, static_cast<uint64_t>(stored), names);
    return found && *found < 2;
}

// The archives FOLDERs' children point into: the dataset's, or in a collection their part's.
// A remote collection's parts are opened when first read; the check opens the ones holding its
// evidence (one HEAD each) and keeps them for its own reads.
class Archives {
  public:
    explicit Archives(const DatasetContext& ctx) : ctx_(ctx) {}

    /// FOLDER k's archive; nullptr when its part is missing or could not be opened (the
    /// level is then left as stored, with a warning for a part that failed to open).
    const io::ByteSource* of(const Folders& f, size_t k) {
        if (!ctx_.parts) return ctx_.source.archive.get();
        const CollectionParts& parts = *ctx_.parts;
        const std::string_view file = f.parts[k];
        for (size_t j = 0; j < parts.files.size() && j < parts.sources.size(); ++j) {
            if (parts.files[j] != file) continue;
            if (parts.sources[j]) return parts.sources[j].get();
            if (!io::is_remote(parts.root)) return nullptr;  // a missing local part
            auto& opened = remote_[std::string(file)];
            if (!opened) {
                const io::Location where = io::parse_location(part_path(parts, file));
                try {
                    opened = io::RemoteSource::open(where);
                } catch (const IoError& e) {
                    log::emit(LogLevel::Warning, "load",
                              ctx_.name() + ": cannot check the level offsets of part " +
                                  std::string(file) + ", read as stored: " + e.what());
                    return nullptr;
                }
            }
            return opened.get();
        }
        return nullptr;
    }

  private:
    const DatasetContext& ctx_;
    std::map<std::string, std::shared_ptr<io::ByteSource>> remote_;
};

// The evidence: the first child of each FOLDER in `moved` (x) and the row the writer pasted
// its offsets into (y). Whether, for each, the local header at y's stored offset names x's entry.
std::vector<bool> children_moved(DatasetContext& ctx, size_t i, const Folders& f, size_t n,
                                 const std::vector<size_t>& moved, Archives& archives) {
    std::vector<std::pair<size_t, size_t>> pairs;  // (x, y) child rows
    std::string list;
    for (size_t k : moved) {
        pairs.emplace_back(k * n, rank_of(f, k) * n);
        list += (list.empty() ? "" : ", ") + std::to_string(pairs.back().first) + ", " +
                std::to_string(pairs.back().second);
    }
    const auto rows = metadata::ResultTable::fetch(
        ctx.db,
        "SELECT CAST(file_row_number AS BIGINT), \"internal:relative_path\", "
        "\"internal:offset\" FROM read_parquet(" +
            quote_literal(ctx.level_files[i]) + ", file_row_number = true) " +
            "WHERE file_row_number IN (" + list + ")");
    std::map<size_t, size_t> row;  // file row -> result row
    for (size_t j = 0; j < rows->rows(); ++j)
        if (!rows->is_null(j, 0)) row.emplace(static_cast<size_t>(rows->get_int(j, 0)), j);
    std::vector<bool> shows(moved.size(), false);
    for (size_t m = 0; m < moved.size(); ++m) {
        const auto x = row.find(pairs[m].first), y = row.find(pairs[m].second);
        if (x == row.end() || y == row.end() || rows->is_null(x->second, 1) ||
            rows->is_null(y->second, 1) || rows->is_null(y->second, 2))
            continue;
        const std::string_view x_path = rows->get_string(x->second, 1);
        // The model holds: x is FOLDER k's first child.
        const size_t slash = trimmed(x_path).rfind('/');
        if (slash == std::string_view::npos || x_path.substr(0, slash) != f.paths[moved[m]])
            continue;
        const io::ByteSource* archive = archives.of(f, moved[m]);
        shows[m] = archive && points_at_other_row(*archive, x_path, rows->get_string(y->second, 1),
                                                  rows->get_int(y->second, 2));
    }
    return shows;
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

// Level `i` realigned, or nullptr when it is in order or cannot be decided. In a collection each
// part is decided on its own evidence: a part written right (by a writer that keeps offsets with
// their rows) may have FOLDERs out of order too, and must be read as stored beside a
// misaligned one.
std::shared_ptr<const RealignedLevel> realign(DatasetContext& ctx, size_t i, Verdicts& verdicts,
                                              Archives& archives) {
    // The level above alone first: when its FOLDERs are in sorted order (in each part), no
    // writer can have misaligned this level, and that is the whole cost.
    const std::optional<Folders> f = folders_above(ctx, i);
    if (!f || f->paths.empty()) return nullptr;
    // Per part (its first FOLDER's index): the first and the last FOLDER out of order.
    std::map<size_t, std::pair<size_t, size_t>> out_of_order;
    for (size_t k = 1; k < f->paths.size(); ++k) {
        if (f->segment[k] != f->segment[k - 1] || !folder_less(f->paths[k], f->paths[k - 1]))
            continue;
        const auto [at, first] = out_of_order.try_emplace(f->segment[k], k, k);
        if (!first) at->second.second = k;
    }
    if (out_of_order.empty()) return nullptr;
    const uint64_t rows = std::stoull(ctx.db.query_scalar("SELECT count(*) FROM read_parquet(" +
                                                          quote_literal(ctx.level_files[i]) + ")"));
    if (rows == 0 || rows % f->paths.size() != 0) return nullptr;  // not PIT's shape
    const size_t n = rows / f->paths.size();
    std::set<size_t> misaligned;  // parts (segments) whose rows carry other rows' offsets
    if (const std::optional<bool> earlier = verdicts.earlier(i)) {
        if (!*earlier) return nullptr;
        for (const auto& [segment, folders] : out_of_order) misaligned.insert(segment);
    } else {
        // The first and the last FOLDER found out of order in a part must both show it.
        std::vector<size_t> evidence;
        for (const auto& [segment, folders] : out_of_order) {
            evidence.push_back(folders.first);
            evidence.push_back(folders.second);
        }
        const std::vector<bool> shows = children_moved(ctx, i, *f, n, evidence, archives);
        size_t e = 0;
        for (const auto& [segment, folders] : out_of_order) {
            if (shows[e] && shows[e + 1]) misaligned.insert(segment);
            e += 2;
        }
        verdicts.found(i, !misaligned.empty());
        if (misaligned.empty()) return nullptr;
    }
    // Each FOLDER of a misaligned part takes the values written at its rank in the part.
    const auto stored = scan_level(ctx, i, {"internal:offset", "internal:size"});
    if (stored->rows() != rows) return nullptr;
    std::vector<size_t> order(f->paths.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        if (f->segment[a] != f->segment[b]) return f->segment[a] < f->segment[b];
        return misaligned.count(f->segment[a]) ? folder_less(f->paths[a], f->paths[b]) : a < b;
    });
    auto offsets = std::make_shared<std::vector<int64_t>>(rows);
    auto sizes = std::make_shared<std::vector<int64_t>>(rows);
    auto out = std::make_shared<RealignedLevel>();
    out->level = i;
    for (size_t rank = 0; rank < order.size(); ++rank) {
        const size_t k = order[rank];
        for (size_t j = 0; j < n; ++j) {
            const size_t from = rank * n + j;
            if (stored->is_null(from, 0) || stored->is_null(from, 1)) return nullptr;
            (*offsets)[k * n + j] = stored->get_int(from, 0);
            (*sizes)[k * n + j] = stored->get_int(from, 1);
        }
        if (rank != k) out->moved += n;
    }
    if (!f->parts.empty()) {
        for (size_t segment : misaligned) out->parts.emplace_back(f->parts[segment]);
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
    Archives archives(ctx);
    for (size_t i = 1; i < ctx.level_files.size(); ++i) {
        const std::vector<ColumnType>& cols = ctx.level_columns[i];
        const ColumnType* path = find_column(cols, "internal:relative_path");
        // (A column named file_row_number would clash with the scan's row numbers.)
        if (!path || path->type.id() != TypeId::String || !is_int64(cols, "internal:offset") ||
            !is_int64(cols, "internal:size") || has_column(cols, "file_row_number"))
            continue;
        io::TraceScope trace("load(): level offsets in order");
        auto level = realign(ctx, i, verdicts, archives);
        if (!level) continue;
        log::emit(
            LogLevel::Warning, "load",
            ctx.name() + ": " + src.levels[i].name + ": " + std::to_string(level->moved) +
                " rows carry the internal:offset/size of other rows, as tacotoolbox "
                "writes them when folder ids are not in sorted order (FORMAT.md §4.3); "
                "their views read each sample's own (taco validate reports the file, taco "
                "export writes a corrected copy)" +
                (level->parts.empty() ? std::string() : "; in part(s) " + join_text(level->parts)));
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
