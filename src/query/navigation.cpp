#include "query/navigation.hpp"

#include <algorithm>
#include <system_error>

#include "format/parquet_footer.hpp"
#include "io/byte_source.hpp"
#include "io/contained_path.hpp"
#include "io/location.hpp"
#include "io/remote_source.hpp"
#include "query/error_text.hpp"
#include "query/level_revalidation.hpp"
#include "query/vsi_path.hpp"
#include "taco/errors.hpp"

namespace fs = std::filesystem;

namespace taco::query {
namespace {

using metadata::quote_literal;

constexpr std::string_view kMeta = "/__meta__";

bool is_remote(std::string_view vsi) {
    return io::is_remote(vsi);
}

// A remote archive named by a gdal_vsi path (one HEAD to open it, then range reads).
std::shared_ptr<io::ByteSource> open_remote(std::string_view vsi) {
    return io::RemoteSource::open(io::parse_location(vsi));
}

// A whole remote file (a FOLDER sample or __meta__): one GET over plain HTTP(S).
std::shared_ptr<io::ByteSource> fetch_remote_file(std::string_view vsi) {
    const io::Location location = io::parse_location(vsi);
    if (!io::is_plain_http(location)) return io::RemoteSource::open(location);
    io::WholeFile got = io::http_get_whole(location, nullptr);
    return io::RemoteSource::from_bytes(location, got.identity, std::move(got.bytes));
}

// The collection index (its path) that names `root` as a part missing at load, if any.
std::optional<std::string> index_missing(const DatasetContext& ctx, std::string_view root) {
    for (const DatasetContext* collection : collections_in(ctx))
        for (const std::string& file : collection->parts->missing)
            if (collection->parts->root + file == root) return collection->source.path.string();
    return std::nullopt;
}

std::shared_ptr<io::ByteSource> archive_for(DatasetContext& ctx, std::string_view root) {
    std::lock_guard lock(ctx.archives_mutex);
    const auto known = ctx.archives.find(root);
    if (known != ctx.archives.end()) return known->second;
    if (!is_remote(root)) {
        try {
            return io::open_local_source(std::string(root));
        } catch (const IoError&) {
            const auto index = index_missing(ctx, root);
            if (!index) throw;
            throw IoError(*index + ": part '" + std::string(root) +
                          "' is missing, so its samples cannot be read (the index's rows can "
                          "still be queried; base_path says where the parts are)");
        }
    }
    // A remote archive not opened at load (a part of a remote collection) costs a HEAD: it is
    // kept, so later reads of that part are one range request each.
    auto opened = open_remote(root);
    ctx.archives.emplace(std::string(root), opened);
    return opened;
}

// The root of the FOLDER dataset (`ctx` or one of its parts) whose DATA/ `path` starts with,
// without its query string (io::split_query): `path` is compared without its own.
std::optional<std::string_view> folder_root_of(const DatasetContext& ctx, std::string_view path) {
    if (ctx.concat) {
        for (const ConcatPart& part : ctx.concat->parts)
            if (const auto root = folder_root_of(*part.ctx, path)) return root;
        return std::nullopt;
    }
    if (ctx.source.format != ContainerFormat::Folder) return std::nullopt;
    const std::string_view root = io::split_query(ctx.source.vsi_root).path;
    path = io::split_query(path).path;
    if (path.size() > root.size() + 6 && path.substr(0, root.size()) == root &&
        path.substr(root.size(), 6) == "/DATA/") {
        return root;
    }
    return std::nullopt;
}

std::optional<size_t> column_of(const metadata::ResultTable& t, std::string_view name,
                                std::initializer_list<TypeId> types) {
    for (size_t i = 0; i < t.columns(); ++i) {
        if (t.schema()[i].name != name) continue;
        const TypeId id = t.schema()[i].type.id();
        if (std::find(types.begin(), types.end(), id) == types.end()) return std::nullopt;
        return i;
    }
    return std::nullopt;
}

// The children table of one `__meta__` from the rows [first, last) of `raw` (all of them for a
// file read alone, one file's share of a multi-file read): its columns, padding hidden, plus the
// children's own gdal_vsi: `/vsisubfile/{offset}_{size},{archive}` for an archive, `{dir}/{id}`
// for a FOLDER dataset (REFERENCE-API §A10). `columns` are the raw columns the table keeps. The
// padding filter and the paths are done here rather than as SQL expressions, which DuckDB would
// spend longer binding than evaluating on a few rows.
std::shared_ptr<const metadata::ResultTable> children_from(
    const std::shared_ptr<const metadata::ResultTable>& raw, std::vector<size_t> columns,
    const std::string& container, const std::string& where, const std::string* archive,
    const std::string& dir, size_t first, size_t last) {
    auto need = [&](const char* name, std::initializer_list<TypeId> types) {
        const auto col = column_of(*raw, name, types);
        if (!col) {
            throw NavigationError(container + ": " + where + " has no usable column '" + name +
                                  "', which navigation needs; the dataset may be damaged or "
                                  "written by an incompatible tool");
        }
        return *col;
    };
    const size_t id = need("id", {TypeId::String});
    need("type", {TypeId::String});
    std::optional<size_t> offset, size;
    if (archive) {
        offset = need("internal:offset", {TypeId::Int64, TypeId::Int32});
        size = need("internal:size", {TypeId::Int64, TypeId::Int32});
    }
    const bool url = io::is_http_vsi(dir);
    const io::QuerySplit dir_cut = io::split_query(dir);
    auto vsi = [&](const metadata::ResultTable::ChunkRows& rows, size_t row, std::string& out) {
        if (archive) {
            if (rows.is_null(row, *offset) || rows.is_null(row, *size)) return false;
            write_vsi_subfile(out, rows.get_int(row, *offset), rows.get_int(row, *size), *archive);
        } else {
            out.assign(dir_cut.path);
            out += '/';
            append_path(out, rows.get_string(row, id), url);
            out += dir_cut.query;
        }
        return true;
    };
    metadata::ResultTable::HiddenRows hidden = padding_rows(id);
    hidden.first = first;
    hidden.last = last;
    return metadata::ResultTable::derive(raw, columns, hidden, "internal:gdal_vsi", vsi);
}

// Every column of `raw` but a gdal_vsi stored by some writer (replaced by the computed one) and
// the `extra` last columns a multi-file read adds.
std::vector<size_t> kept_columns(const metadata::ResultTable& raw, size_t extra) {
    std::vector<size_t> columns;
    for (size_t c = 0; c + extra < raw.columns(); ++c)
        if (raw.schema()[c].name != "internal:gdal_vsi") columns.push_back(c);
    return columns;
}

// Reads one __meta__ through `relation` (a read_parquet call): its children table.
std::shared_ptr<const metadata::ResultTable> fetch_children(DatasetContext& ctx,
                                                            const std::string& relation,
                                                            const std::string& where,
                                                            const std::string* archive,
                                                            const std::string& dir) {
    // The archive names the file in messages (a concatenation has several).
    const std::string container = archive ? *archive : ctx.name();
    std::lock_guard lock(ctx.db_mutex);
    query::ensure_levels_current(ctx);
    std::shared_ptr<const metadata::ResultTable> raw;
    try {
        raw = metadata::ResultTable::fetch(ctx.db, "SELECT * FROM " + relation);
    } catch (const QueryError& e) {
        throw FormatError(container + ": " + where + " is not a readable Parquet file: " +
                          user_facing_duckdb_error(ctx, e.what()).text);
    }
    return children_from(raw, kept_columns(*raw, 0), container, where, archive, dir, 0,
                         raw->rows());
}

}  // namespace

namespace {

// A legacy v1 FOLDER (nested tortilla, src/legacy/): its children are rows of the next level
// table, which was built from its FOOTER. The context (or concatenated part) whose file holds it.
std::shared_ptr<const metadata::ResultTable> legacy_children(DatasetContext& ctx,
                                                             const SubfileRef& ref,
                                                             const std::string& id, bool& found) {
    if (ctx.concat) {
        for (const ConcatPart& part : ctx.concat->parts) {
            auto t = legacy_children(*part.ctx, ref, id, found);
            if (found) return t;
        }
        return nullptr;
    }
    const auto it = ctx.source.legacy_folders.find(ref.offset);
    if (ctx.source.vsi_root != ref.root || it == ctx.source.legacy_folders.end()) return nullptr;
    found = true;
    const auto [level, current] = it->second;
    const std::string relation =
        "(SELECT * EXCLUDE (\"internal:current_id\", \"internal:parent_id\", "
        "\"internal:relative_path\") FROM read_parquet(" +
        quote_literal(ctx.level_files.at(level + 1)) +
        ") WHERE \"internal:parent_id\" = " + std::to_string(current) +
        " ORDER BY \"internal:current_id\")";
    const std::string archive(ref.root);
    return fetch_children(ctx, relation, "nested tortilla '" + id + "'", &archive, "");
}

bool ends_with_meta(std::string_view path) {
    return path.size() >= kMeta.size() && path.substr(path.size() - kMeta.size()) == kMeta;
}

// A FOLDER dataset's __meta__ of the FOLDER at `folder_vsi`: the view points at `<dir>/__meta__`,
// children read from a __meta__ point at the directory itself (the next read appends /__meta__),
// as tacoreader does. An HTTP root's query string stays at the end (`…/__meta__?token=abc`).
std::string meta_path_of(std::string_view folder_vsi) {
    const io::QuerySplit cut = io::split_query(folder_vsi);
    std::string meta(cut.path);
    if (!ends_with_meta(meta)) meta += kMeta;
    return meta.append(cut.query);
}

// The directory of a __meta__ path from meta_path_of, with its query string.
std::string dir_of_meta(std::string_view meta) {
    const io::QuerySplit cut = io::split_query(meta);
    std::string dir(cut.path.substr(0, cut.path.size() - kMeta.size()));
    return dir.append(cut.query);
}

// How messages name a __meta__: by its byte range in an archive, or by its path.
std::string meta_where(const std::string& id, const SubfileRef& ref) {
    return "__meta__ of FOLDER '" + id + "' (" + io::byte_range_text(ref.offset, ref.size) + ")";
}
std::string meta_where(const std::string& id, const std::string& meta) {
    return "__meta__ of FOLDER '" + id + "' (" + meta + ")";
}

// The children table of a `__meta__` DuckDB reads from an in-memory copy of bytes
// [offset, offset + size) of `source`: a ZIP's entry, a remote file, or a local file in a
// sandbox (which lets DuckDB read only the level tables, sandbox.cpp).
std::shared_ptr<const metadata::ResultTable> children_through_copy(
    DatasetContext& ctx, io::ByteSource& source, uint64_t offset, uint64_t size,
    const std::string& where, const std::string* archive, const std::string& dir) {
    io::MemFd bytes("taco-meta");
    source.copy_to_fd(offset, size, bytes.fd(), where);
    return fetch_children(ctx, "read_parquet(" + quote_literal(bytes.proc_path()) + ")", where,
                          archive, dir);
}

std::shared_ptr<const metadata::ResultTable> read_meta(DatasetContext& ctx,
                                                       std::string_view folder_vsi,
                                                       std::string_view folder_id) {
    const std::string id(folder_id);
    if (const auto ref = parse_vsi_subfile(folder_vsi)) {
        bool legacy = false;
        if (auto children = legacy_children(ctx, *ref, id, legacy)) return children;
        const std::string archive(ref->root);
        return children_through_copy(ctx, *archive_for(ctx, ref->root), ref->offset, ref->size,
                                     meta_where(id, *ref), &archive, "");
    }
    const std::string meta = meta_path_of(folder_vsi);
    const std::string dir = dir_of_meta(meta);
    check_inside_dataset(ctx, meta, true, [&] { return "'" + id + "'"; });
    if (is_remote(meta)) {
        auto source = fetch_remote_file(meta);
        return children_through_copy(ctx, *source, 0, source->size(), meta_where(id, meta), nullptr,
                                     dir);
    }
    std::error_code ec;
    if (!fs::is_regular_file(meta, ec)) {
        throw FormatError(ctx.name() + ": FOLDER sample '" + id +
                          "' has no __meta__ file (expected " + meta + ")");
    }
    if (ctx.sandboxed) {
        auto source = io::open_local_source(meta);
        return children_through_copy(ctx, *source, 0, source->size(), meta_where(id, meta), nullptr,
                                     dir);
    }
    return fetch_children(ctx, "read_parquet(" + quote_literal(meta) + ")", meta_where(id, meta),
                          nullptr, dir);
}

}  // namespace

namespace {

// ---- Read-ahead (query/meta_readahead.hpp): several __meta__ in one DuckDB statement ----------

// No one __meta__ larger than this is read ahead, and no batch holds more.
constexpr uint64_t kMaxAheadFile = 1 << 20;
constexpr uint64_t kMaxAheadBatch = 8 << 20;

// A __meta__ ready for a multi-file read: the file DuckDB reads and what its footer says.
struct StagedMeta {
    FolderRef folder;
    std::unique_ptr<io::MemFd> bytes;  // an archive's __meta__: the copy DuckDB reads
    std::string path;                  // what read_parquet() reads
    std::string where;                 // names it in messages
    std::string archive;               // the archive's root; empty for a FOLDER dataset
    std::string dir;                   // FOLDER dataset: the directory its children are in
    format::ParquetFooter footer;      // with the file's size
};

// The __meta__ of `folder` staged for a batch, or nullopt when it is not read ahead: remote (a
// request each, nothing to save), a legacy v1 FOLDER, larger than kMaxAheadFile, or anything
// odd (missing, outside the dataset, a footer that does not parse). Such a FOLDER is read on
// its own when it is asked for, with that read's checks and errors.
std::optional<StagedMeta> stage_meta(DatasetContext& ctx, const FolderRef& folder) {
    try {
        StagedMeta m;
        m.folder = folder;
        if (const auto ref = parse_vsi_subfile(folder.vsi)) {
            if (is_remote(ref->root) || ref->size > kMaxAheadFile) return std::nullopt;
            if (ctx.source.vsi_root == ref->root && ctx.source.legacy_folders.count(ref->offset))
                return std::nullopt;
            m.where = meta_where(folder.id, *ref);
            m.bytes = std::make_unique<io::MemFd>("taco-meta");
            archive_for(ctx, ref->root)->copy_to_fd(ref->offset, ref->size, m.bytes->fd(), m.where);
            m.path = m.bytes->proc_path();
            m.archive = std::string(ref->root);
            const auto footer = format::read_parquet_footer(m.bytes->fd());
            if (!footer) return std::nullopt;
            m.footer = *footer;
            return m;
        }
        const std::string meta = meta_path_of(folder.vsi);
        // Remote: a request each, nothing to save. Sandboxed: read one by one, through copies.
        if (is_remote(meta) || ctx.sandboxed) return std::nullopt;
        check_inside_dataset(ctx, meta, true, [&] { return "'" + folder.id + "'"; });
        const auto footer = format::read_parquet_footer_file(meta);
        if (!footer || footer->file_size > kMaxAheadFile) return std::nullopt;
        m.where = meta_where(folder.id, meta);
        m.path = meta;
        m.dir = dir_of_meta(meta);
        m.footer = *footer;
        return m;
    } catch (const Error&) {
        return std::nullopt;
    }
}

// The columns of a children table that read-ahead looks for FOLDERs in.
std::optional<FolderRows> folder_rows_of(std::shared_ptr<const metadata::ResultTable> table,
                                         size_t level) {
    FolderRows rows;
    std::optional<size_t> type, vsi;
    for (size_t c = 0; c < table->columns(); ++c) {
        const std::string& name = table->schema()[c].name;
        if (name == "type" && !type) type = c;
        if (name == "id" && !rows.id_col) rows.id_col = c;
        if (name == "internal:gdal_vsi") vsi = c;
    }
    if (!type || !vsi) return std::nullopt;
    rows.table = std::move(table);
    rows.level = level;
    rows.type_col = *type;
    rows.vsi_col = *vsi;
    return rows;
}

// Reads `files` (the requested __meta__ first, then the ones read ahead, all with the same
// table bytes) in one statement, and splits the rows by file: DuckDB reads the files of a list in
// order, and file_row_number confirms where each one's rows are. Caches every table but the
// first, which it returns; nullptr when the statement or the check fails (the requested one is
// then read on its own, which reports what is wrong with it).
std::shared_ptr<const metadata::ResultTable> read_batch(DatasetContext& ctx,
                                                        std::vector<StagedMeta>& files,
                                                        std::optional<size_t> level) {
    std::string list = "[";
    for (size_t i = 0; i < files.size(); ++i)
        list += (i ? ", " : "") + quote_literal(files[i].path);
    list += "]";
    std::shared_ptr<const metadata::ResultTable> raw;
    {
        std::lock_guard lock(ctx.db_mutex);
        query::ensure_levels_current(ctx);
        try {
            // Materialized: a streamed result hands each file's few rows over as a chunk of its
            // own, one thread hand-off each (0.10 -> 0.094 s for nav_3level's 500 files).
            raw = metadata::ResultTable::fetch(
                ctx.db, "SELECT * FROM read_parquet(" + list + ", file_row_number = true)", nullptr,
                true);
        } catch (const QueryError&) {
            return nullptr;
        }
    }
    const size_t numbers = raw->columns() - 1;
    if (raw->columns() == 0 || raw->schema()[numbers].name != "file_row_number") return nullptr;
    std::vector<size_t> starts;
    size_t row = 0;
    for (const StagedMeta& f : files) {
        starts.push_back(row);
        for (int64_t k = 0; k < f.footer.num_rows; ++k, ++row) {
            if (row >= raw->rows() || raw->is_null(row, numbers) || raw->get_int(row, numbers) != k)
                return nullptr;
        }
    }
    if (row != raw->rows()) return nullptr;
    const std::vector<size_t> columns = kept_columns(*raw, 1);
    std::shared_ptr<const metadata::ResultTable> requested;
    for (size_t i = 0; i < files.size(); ++i) {
        const StagedMeta& f = files[i];
        const std::string* archive = f.archive.empty() ? nullptr : &f.archive;
        std::shared_ptr<const metadata::ResultTable> table;
        try {
            table = children_from(raw, columns, archive ? f.archive : ctx.name(), f.where, archive,
                                  f.dir, starts[i], starts[i] + f.footer.num_rows);
        } catch (const Error&) {
            if (i == 0) return nullptr;
            continue;  // it fails again, with this error, if it is ever asked for
        }
        if (i == 0) {
            requested = std::move(table);
            continue;
        }
        ctx.children.put(f.folder.vsi, table);
        if (!level) continue;
        if (auto rows = folder_rows_of(std::move(table), *level))
            ctx.readahead.remember(std::move(*rows));
    }
    return requested;
}

// The children of `folder` read in one statement with those of `others` that can share it
// (cached too), or nullptr when none can (the caller reads it on its own). `level`: the level
// of the children tables, to remember them for read-ahead (none: not remembered).
std::shared_ptr<const metadata::ResultTable> read_together(DatasetContext& ctx,
                                                           const FolderRef& folder,
                                                           const std::vector<FolderRef>& others,
                                                           std::optional<size_t> level) {
    std::optional<StagedMeta> first = stage_meta(ctx, folder);
    if (!first) return nullptr;
    std::vector<StagedMeta> files;
    uint64_t bytes = first->footer.file_size;
    files.push_back(std::move(*first));
    for (const FolderRef& other : others) {
        std::optional<StagedMeta> m = stage_meta(ctx, other);
        // Only files that bind to the same columns and types as the requested one share its
        // statement: DuckDB would cast or drop the columns of the others (PIT-2 makes them
        // equal in a valid dataset).
        if (!m || m->footer.table_bytes != files[0].footer.table_bytes) continue;
        if (bytes + m->footer.file_size > kMaxAheadBatch) break;
        bytes += m->footer.file_size;
        files.push_back(std::move(*m));
    }
    if (files.size() == 1) return nullptr;
    return read_batch(ctx, files, level);
}

}  // namespace

std::shared_ptr<const metadata::ResultTable> read_folder_children(DatasetContext& ctx,
                                                                  std::string_view folder_vsi,
                                                                  std::string_view folder_id,
                                                                  const FolderRows* from,
                                                                  size_t row) {
    const std::string key(folder_vsi);
    if (auto cached = ctx.children.find(key)) return cached;
    std::shared_ptr<const metadata::ResultTable> table;
    if (from && !ctx.concat) {
        const size_t window = ctx.readahead.take_window(from->level);
        if (window > 1) {
            auto wanted = [&](std::string_view vsi) {
                return vsi != key && !ctx.children.contains(std::string(vsi));
            };
            table = read_together(ctx, {key, std::string(folder_id)},
                                  ctx.readahead.candidates(*from, row, window - 1, wanted),
                                  from->level + 1);
        }
    }
    if (!table) table = read_meta(ctx, folder_vsi, folder_id);
    ctx.children.put(key, table);
    if (from) {
        if (auto rows = folder_rows_of(table, from->level + 1))
            ctx.readahead.remember(std::move(*rows));
    }
    return table;
}

void read_folders_ahead(DatasetContext& ctx, const std::vector<FolderRef>& folders) {
    if (ctx.concat) return;
    std::vector<FolderRef> missing;
    for (const FolderRef& f : folders)
        if (!ctx.children.contains(f.vsi)) missing.push_back(f);
    for (size_t at = 0; at < missing.size(); at += MetaReadahead::kMaxWindow) {
        const size_t end = std::min(missing.size(), at + MetaReadahead::kMaxWindow);
        const std::vector<FolderRef> others(missing.begin() + at + 1, missing.begin() + end);
        if (auto table = read_together(ctx, missing[at], others, std::nullopt))
            ctx.children.put(missing[at].vsi, std::move(table));
    }
}

void check_inside_dataset(const DatasetContext& ctx, std::string_view vsi, bool meta,
                          const SampleName& name) {
    if (is_vsi_subfile(vsi)) return;
    const std::optional<std::string_view> root = folder_root_of(ctx, vsi);
    std::string why;
    if (!root) {
        why = "it is not under the dataset's DATA/ directory";
    } else {
        std::string_view rel = io::split_query(vsi).path.substr(root->size() + 6);
        if (meta) rel.remove_suffix(kMeta.size());
        why = io::unsafe_relative_path(rel);
        if (why.empty() && !meta) {
            const size_t slash = rel.rfind('/');
            if (rel.substr(slash == std::string_view::npos ? 0 : slash + 1) == "__meta__")
                why = "a FILE cannot be a __meta__ table";
        }
        // A server resolves no symbolic links for us to see: remote paths get the lexical rules.
        if (why.empty() && !is_remote(vsi) &&
            !io::resolves_inside(fs::path(vsi), std::string(*root)))
            why = "it is a symbolic link (or lies under one) that leads outside the dataset";
    }
    if (!why.empty()) {
        throw FormatError(ctx.name() + ": sample " + name() + " has the path '" + std::string(vsi) +
                          "', which does not stay inside the dataset: " + why);
    }
}

FileRange locate_file(DatasetContext& ctx, std::string_view file_vsi, const SampleName& name) {
    if (const auto ref = parse_vsi_subfile(file_vsi)) {
        FileRange r{archive_for(ctx, ref->root), ref->offset, ref->size};
        if (r.offset > r.source->size() || r.source->size() - r.offset < r.size) {
            throw FormatError(r.source->name() + ": sample " + name() + " at " +
                              io::byte_range_text(r.offset, r.size) + " lies outside the file (" +
                              std::to_string(r.source->size()) + " bytes)");
        }
        return r;
    }
    check_inside_dataset(ctx, file_vsi, false, name);
    FileRange r;
    r.source = is_remote(file_vsi) ? fetch_remote_file(file_vsi)
                                   : io::open_local_source(std::string(file_vsi));
    r.size = r.source->size();
    return r;
}

uint64_t file_size(DatasetContext& ctx, std::string_view file_vsi, const SampleName& name) {
    if (const auto ref = parse_vsi_subfile(file_vsi)) return ref->size;
    return locate_file(ctx, file_vsi, name).size;
}

}  // namespace taco::query
