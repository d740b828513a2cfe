#include "query/navigation.hpp"

#include <algorithm>
#include <system_error>

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

std::shared_ptr<io::ByteSource> archive_for(DatasetContext& ctx, std::string_view root) {
    std::lock_guard lock(ctx.archives_mutex);
    const auto known = ctx.archives.find(root);
    if (known != ctx.archives.end()) return known->second;
    if (!is_remote(root)) return io::open_local_source(std::string(root));
    // A remote archive not opened at load (a part of a remote collection) costs a HEAD: it is
    // kept, so later reads of that part are one range request each.
    auto opened = open_remote(root);
    ctx.archives.emplace(std::string(root), opened);
    return opened;
}

// The root of the FOLDER dataset (`ctx` or one of its parts) whose DATA/ `path` starts with.
const std::string* folder_root_of(const DatasetContext& ctx, std::string_view path) {
    if (ctx.concat) {
        for (const ConcatPart& part : ctx.concat->parts)
            if (const std::string* root = folder_root_of(*part.ctx, path)) return root;
        return nullptr;
    }
    if (ctx.source.format != ContainerFormat::Folder) return nullptr;
    const std::string& root = ctx.source.vsi_root;
    if (path.size() > root.size() + 6 && path.substr(0, root.size()) == root &&
        path.substr(root.size(), 6) == "/DATA/") {
        return &root;
    }
    return nullptr;
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

// Reads one __meta__ through `relation` (a read_parquet call) and adds the children's own
// gdal_vsi: `/vsisubfile/{offset}_{size},{archive}` for an archive, `{dir}/{id}` for a FOLDER
// dataset (REFERENCE-API §A10). A __meta__ holds a few rows, so the statement overhead is the
// whole cost: the query is a plain SELECT *, and the padding filter and the paths are done here
// rather than as SQL expressions, which DuckDB would spend longer binding than evaluating.
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
    // A gdal_vsi stored by some writer is replaced by the computed one.
    std::vector<size_t> columns;
    for (size_t c = 0; c < raw->columns(); ++c)
        if (raw->schema()[c].name != "internal:gdal_vsi") columns.push_back(c);
    auto vsi = [&](const metadata::ResultTable::ChunkRows& rows, size_t row, std::string& out) {
        if (archive) {
            if (rows.is_null(row, *offset) || rows.is_null(row, *size)) return false;
            write_vsi_subfile(out, rows.get_int(row, *offset), rows.get_int(row, *size), *archive);
        } else {
            out.assign(dir);
            out += '/';
            out += rows.get_string(row, id);
        }
        return true;
    };
    return metadata::ResultTable::derive(raw, columns, padding_rows(id), "internal:gdal_vsi", vsi);
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

std::shared_ptr<const metadata::ResultTable> read_meta(DatasetContext& ctx,
                                                       std::string_view folder_vsi,
                                                       std::string_view folder_id) {
    const std::string id(folder_id);
    if (const auto ref = parse_vsi_subfile(folder_vsi)) {
        bool legacy = false;
        if (auto children = legacy_children(ctx, *ref, id, legacy)) return children;
        const std::string where = "__meta__ of FOLDER '" + id + "' (bytes [" +
                                  std::to_string(ref->offset) + ", " +
                                  std::to_string(ref->offset + ref->size) + "))";
        auto source = archive_for(ctx, ref->root);
        io::MemFd bytes("taco-meta");
        source->copy_to_fd(ref->offset, ref->size, bytes.fd(), where);
        const std::string archive(ref->root);
        return fetch_children(ctx, "read_parquet(" + quote_literal(bytes.proc_path()) + ")", where,
                              &archive, "");
    }
    // FOLDER datasets: the view points at `<dir>/__meta__`, children read from a __meta__ point at
    // the directory itself (the next read appends /__meta__), as tacoreader does.
    std::string meta(folder_vsi);
    if (meta.size() < kMeta.size() ||
        meta.compare(meta.size() - kMeta.size(), kMeta.size(), kMeta) != 0) {
        meta += kMeta;
    }
    const std::string dir = meta.substr(0, meta.size() - kMeta.size());
    check_inside_dataset(ctx, meta, true, [&] { return "'" + id + "'"; });
    if (is_remote(meta)) {
        const std::string where = "__meta__ of FOLDER '" + id + "' (" + meta + ")";
        auto source = fetch_remote_file(meta);
        io::MemFd bytes("taco-meta");
        source->copy_to_fd(0, source->size(), bytes.fd(), where);
        return fetch_children(ctx, "read_parquet(" + quote_literal(bytes.proc_path()) + ")", where,
                              nullptr, dir);
    }
    std::error_code ec;
    if (!fs::is_regular_file(meta, ec)) {
        throw FormatError(ctx.name() + ": FOLDER sample '" + id +
                          "' has no __meta__ file (expected " + meta + ")");
    }
    return fetch_children(ctx, "read_parquet(" + quote_literal(meta) + ")",
                          "__meta__ of FOLDER '" + id + "' (" + meta + ")", nullptr, dir);
}

}  // namespace

std::shared_ptr<const metadata::ResultTable> read_folder_children(DatasetContext& ctx,
                                                                  std::string_view folder_vsi,
                                                                  std::string_view folder_id) {
    const std::string key(folder_vsi);
    if (auto cached = ctx.children.find(key)) return cached;
    auto table = read_meta(ctx, folder_vsi, folder_id);
    ctx.children.put(key, table);
    return table;
}

void check_inside_dataset(const DatasetContext& ctx, std::string_view vsi, bool meta,
                          const SampleName& name) {
    if (vsi.substr(0, kVsiSubfile.size()) == kVsiSubfile) return;
    const std::string* root = folder_root_of(ctx, vsi);
    std::string why;
    if (!root) {
        why = "it is not under the dataset's DATA/ directory";
    } else {
        std::string_view rel = vsi.substr(root->size() + 6);
        if (meta) rel.remove_suffix(kMeta.size());
        why = io::unsafe_relative_path(rel);
        if (why.empty() && !meta) {
            const size_t slash = rel.rfind('/');
            if (rel.substr(slash == std::string_view::npos ? 0 : slash + 1) == "__meta__")
                why = "a FILE cannot be a __meta__ table";
        }
        // A server resolves no symbolic links for us to see: remote paths get the lexical rules.
        if (why.empty() && !is_remote(vsi) && !io::resolves_inside(fs::path(vsi), *root))
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
            throw FormatError(r.source->name() + ": sample " + name() + " at bytes [" +
                              std::to_string(r.offset) + ", " + std::to_string(r.offset + r.size) +
                              ") lies outside the file (" + std::to_string(r.source->size()) +
                              " bytes)");
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
