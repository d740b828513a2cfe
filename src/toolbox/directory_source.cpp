#include "toolbox/directory_source.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <set>
#include <unordered_map>
#include <utility>

#include "io/parallel.hpp"
#include "io/trace.hpp"
#include "log/messages.hpp"
#include "metadata/duckdb_session.hpp"
#include "metadata/result_table.hpp"
#include "model/utf8.hpp"
#include "paths/path_anchor.hpp"
#include "taco/errors.hpp"

namespace fs = std::filesystem;

namespace taco::toolbox {
namespace {

// Kept small: the nodes of a directory are sorted by moving them.
struct Node {
    std::string id;
    std::string rel;  // relative path, '/' separated
    bool folder = false;
    std::vector<Node> children;
    std::vector<Value>* row = nullptr;  // the node's metadata row, if the table has one
};

// A FILE sample made while the metadata table is read, or why it could not be made.
struct FileSample {
    std::optional<Sample> sample;
    std::exception_ptr error;  // thrown where build() reaches the file
};

enum class EntryKind { File, Directory, Other };

// `dir / name` as fs::path spells it, without building an fs::path: each one parses and allocates
// every component of the path, which costs more than listing the entry.
std::string join(const std::string& dir, const char* name) {
    return dir.empty() || dir.back() == '/' ? dir + name : dir + '/' + name;
}

// What a listing needs to judge symbolic links: the directory's real path, the policy, and the
// directories being listed (device, inode), from the root down to the current one.
struct ScanContext {
    std::string root_real;  // realpath of the input directory, without a trailing '/'
    bool follow_outside = false;
    std::vector<std::pair<dev_t, ino_t>> open_dirs;
};

bool inside(const std::string& real, const std::string& root) {
    return real == root || (real.size() > root.size() && real.compare(0, root.size(), root) == 0 &&
                            (root == "/" || real[root.size()] == '/'));
}

// A symbolic link `path` (its target stat'ed in `st`): refused when it leads outside the input
// directory without the opt-in, or back into a directory being listed (a loop, which would list
// forever).
void check_link(const std::string& path, const struct stat& st, const ScanContext& ctx) {
    std::unique_ptr<char, void (*)(void*)> real(::realpath(path.c_str(), nullptr), std::free);
    if (!real) throw IoError("cannot resolve symbolic link " + path + ": " + std::strerror(errno));
    if (!ctx.follow_outside && !inside(real.get(), ctx.root_real)) {
        throw IoError(path + " is a symbolic link to " + real.get() +
                      ", outside the input directory; it is not packed unless "
                      "--follow-symlinks is given");
    }
    if (S_ISDIR(st.st_mode)) {
        for (const auto& [dev, ino] : ctx.open_dirs) {
            if (dev == st.st_dev && ino == st.st_ino) {
                throw IoError(path + " is a symbolic link to " + real.get() +
                              ", a directory that contains it: a loop");
            }
        }
    }
}

// The type readdir reported saves a stat per entry; symlinks (followed, as everywhere else) and
// file systems that report no type are stat'ed relative to the open directory `handle` (`dir`).
EntryKind entry_kind(DIR* handle, const std::string& dir, const dirent& entry,
                     const ScanContext& ctx) {
    if (entry.d_type == DT_DIR) return EntryKind::Directory;
    if (entry.d_type == DT_REG) return EntryKind::File;
    if (entry.d_type != DT_LNK && entry.d_type != DT_UNKNOWN) return EntryKind::Other;
    bool link = entry.d_type == DT_LNK;
    if (entry.d_type == DT_UNKNOWN) {
        struct stat own {};
        if (::fstatat(::dirfd(handle), entry.d_name, &own, AT_SYMLINK_NOFOLLOW) == 0)
            link = S_ISLNK(own.st_mode);
    }
    struct stat st {};
    if (::fstatat(::dirfd(handle), entry.d_name, &st, 0) != 0)
        throw IoError("cannot stat " + join(dir, entry.d_name) + ": " + std::strerror(errno));
    if (link) check_link(join(dir, entry.d_name), st, ctx);
    if (S_ISDIR(st.st_mode)) return EntryKind::Directory;
    return S_ISREG(st.st_mode) ? EntryKind::File : EntryKind::Other;
}

// POSIX readdir and plain strings rather than fs::directory_iterator and fs::path: listing a
// directory of 10,000 files took several times the system calls it needs.
std::vector<Node> scan(const std::string& dir, const std::string& rel_prefix, ScanContext& ctx) {
    std::unique_ptr<DIR, int (*)(DIR*)> handle(::opendir(dir.c_str()), ::closedir);
    if (!handle) throw IoError("cannot list directory " + dir + ": " + std::strerror(errno));
    struct stat self {};
    if (::fstat(::dirfd(handle.get()), &self) == 0)
        ctx.open_dirs.emplace_back(self.st_dev, self.st_ino);
    std::vector<Node> nodes;
    for (;;) {
        errno = 0;
        const dirent* entry = ::readdir(handle.get());
        if (entry == nullptr) break;
        if (entry->d_name[0] == '.') continue;  // hidden, and the . and .. entries
        if (!model::is_valid_utf8(entry->d_name)) {
            // A file name becomes the sample id, a UTF-8 string in Parquet and in the ZIP: no
            // mapping would round-trip to the original bytes, so the tree is refused before
            // anything is written, naming the file (escaped in the message, USER-GUIDE §8).
            throw SchemaError(join(dir, entry->d_name) +
                              ": invalid sample id: the file name is not UTF-8, and sample ids "
                              "(file names) must be UTF-8 text; rename it (for example with "
                              "convmv) or leave it out of --from");
        }
        Node n;
        n.id = entry->d_name;
        n.rel = rel_prefix + n.id;
        const EntryKind kind = entry_kind(handle.get(), dir, *entry, ctx);
        if (kind == EntryKind::Directory) {
            const std::string path = join(dir, entry->d_name);
            n.folder = true;
            n.children = scan(path, n.rel + "/", ctx);
            if (n.children.empty()) {
                throw IoError("directory " + path +
                              " has no files: a FOLDER sample needs at least one child");
            }
        } else if (kind == EntryKind::Other) {
            throw IoError(join(dir, entry->d_name) + " is neither a regular file nor a directory");
        }
        nodes.push_back(std::move(n));
    }
    if (errno != 0) throw IoError("cannot list directory " + dir + ": " + std::strerror(errno));
    if (!ctx.open_dirs.empty()) ctx.open_dirs.pop_back();
    std::sort(nodes.begin(), nodes.end(), [](const Node& a, const Node& b) { return a.id < b.id; });
    return nodes;
}

// The FILE nodes in build()'s order, with their absolute paths.
void collect_files(const std::vector<Node>& nodes, const std::string& dir,
                   std::vector<std::pair<const Node*, std::string>>& files) {
    for (const auto& n : nodes) {
        if (n.folder)
            collect_files(n.children, join(dir, n.id.c_str()), files);
        else
            files.emplace_back(&n, join(dir, n.id.c_str()));
    }
}

// Sample::file without stopping at a failure: build() throws each error where the one-pass
// version threw it, so the error reported does not depend on this running before the metadata
// table is known.
FileSample make_file_sample(const Node& n, const std::string& path) {
    FileSample f;
    try {
        f.sample = Sample::file(n.id, path);
    } catch (...) {
        f.error = std::current_exception();
    }
    return f;
}

// The FILE samples in build()'s order, made by this thread and a helper taking chunks of files
// in turn: a stat per file is most of the time of listing a large directory.
std::vector<FileSample> make_file_samples(const std::vector<Node>& nodes, const std::string& dir) {
    std::vector<std::pair<const Node*, std::string>> files;
    collect_files(nodes, dir, files);
    std::vector<FileSample> samples(files.size());
    constexpr size_t kChunk = 64;
    io::parallel_for(
        files.size(), 2,
        [&](size_t i) { samples[i] = make_file_sample(*files[i].first, files[i].second); }, kChunk);
    return samples;
}

struct Table {
    std::vector<ColumnType> columns;                           // without the key
    std::unordered_map<std::string, std::vector<Value>> rows;  // key -> values
};

// The rows of `result` keyed by path, in one pass: the key is read as text where it lies and only
// the other columns become Values. Errors name the file, and the row or column at fault.
Table table_of(const metadata::ResultTable& result, const fs::path& file, const std::string& key) {
    const std::vector<ColumnType>& schema = result.schema();
    size_t key_index = schema.size();
    for (size_t c = 0; c < schema.size(); ++c)
        if (schema[c].name == key) key_index = c;
    if (key_index == schema.size()) {
        std::string names;
        for (const auto& c : schema) names += (names.empty() ? "" : ", ") + c.name;
        throw SchemaError("metadata table " + file.string() + " has no key column '" + key +
                          "' (columns: " + names + ")");
    }
    Table t;
    for (size_t c = 0; c < schema.size(); ++c) {
        if (c == key_index) continue;
        try {
            validate_extension_key(schema[c].name);
        } catch (const SchemaError& e) {
            throw SchemaError("metadata table " + file.string() + ": " + e.what());
        }
        t.columns.push_back(schema[c]);
    }
    const bool key_is_text = schema[key_index].type.id() == TypeId::String;
    t.rows.reserve(result.rows());
    for (size_t r = 0; r < result.rows(); ++r) {
        if (!key_is_text || result.is_null(r, key_index)) {
            throw SchemaError("metadata table " + file.string() + " row " + std::to_string(r + 1) +
                              ": key column '" + key +
                              "' must hold the sample's relative path as text");
        }
        std::string k(result.get_string(r, key_index));
        while (!k.empty() && k.back() == '/') k.pop_back();
        std::vector<Value> values;
        values.reserve(t.columns.size());
        for (size_t c = 0; c < schema.size(); ++c)
            if (c != key_index) values.push_back(result.get_value(r, c));
        if (!t.rows.emplace(k, std::move(values)).second) {
            throw SchemaError("metadata table " + file.string() + ": sample path '" + k +
                              "' appears twice");
        }
    }
    return t;
}

// The top-level column names of a metadata table exactly as the file spells them. DuckDB renames a
// column whose name repeats another's ignoring case ("Cloud", "cloud" -> "Cloud", "cloud_1") in
// every reader, so the names DESCRIBE gives are not the file's: each format is asked its own way.
std::vector<std::string> raw_column_names(metadata::DuckSession& db, const fs::path& file,
                                          const std::string& source) {
    std::string extension = file.extension().string();
    for (char& ch : extension) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    std::vector<std::string> names;
    if (extension == ".csv" || extension == ".tsv") {
        auto header =
            metadata::ResultTable::fetch(db, "SELECT * FROM read_csv(" + source +
                                                 ", header = false, all_varchar = true) LIMIT 1");
        if (header->rows() == 0) return names;
        for (size_t c = 0; c < header->columns(); ++c)
            if (!header->is_null(0, c)) names.emplace_back(header->get_string(0, c));
    } else if (extension == ".parquet") {
        // parquet_schema lists the tree depth first: the root, then each column followed by its
        // nested fields. Only the root's direct children are columns; nested ones are skipped.
        auto schema = metadata::ResultTable::fetch(
            db, "SELECT name, CAST(coalesce(num_children, 0) AS BIGINT) FROM parquet_schema(" +
                    source + ")");
        if (schema->rows() == 0) return names;
        const auto children = [&](size_t r) {
            return static_cast<size_t>(std::max<int64_t>(schema->get_int(r, 1), 0));
        };
        size_t r = 1;
        for (size_t c = 0, n = children(0); c < n && r < schema->rows(); ++c) {
            names.emplace_back(schema->get_string(r, 0));
            size_t pending = children(r++);  // nested fields still to skip
            while (pending > 0 && r < schema->rows()) pending = pending - 1 + children(r++);
        }
    } else if (extension == ".json" || extension == ".ndjson" || extension == ".jsonl") {
        // Every key of every top-level object, in order of first appearance.
        auto keys = metadata::ResultTable::fetch(
            db,
            "SELECT k FROM (SELECT unnest(json_keys(json)) AS k, row_number() OVER () AS i "
            "FROM read_json_objects(" +
                source + ")) GROUP BY k ORDER BY min(i)");
        for (size_t r = 0; r < keys->rows(); ++r) names.emplace_back(keys->get_string(r, 0));
    }
    return names;
}

// A second column whose name repeats another's ignoring case would be stored under a name nobody
// chose (DuckDB's "cloud_1"): refused, naming both, before the table is read. The same rule for
// CSV, Parquet and JSON.
void check_column_names(metadata::DuckSession& db, const fs::path& file,
                        const std::string& source) {
    std::unordered_map<std::string, std::string> seen;  // lowercased -> as written
    for (const std::string& name : raw_column_names(db, file, source)) {
        std::string folded = name;
        for (char& ch : folded)
            ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        auto [it, fresh] = seen.emplace(folded, name);
        if (fresh) continue;
        throw SchemaError("metadata table " + file.string() + ": columns '" + it->second +
                          "' and '" + name + "' " +
                          (it->second == name ? "have the same name" : "differ only in case") +
                          "; column names are compared without case, so one of them would be "
                          "renamed. Rename or drop one");
    }
}

Table read_table(format::PendingSession& session, const fs::path& file, const std::string& key) {
    std::error_code ec;
    if (!fs::is_regular_file(file, ec)) throw IoError("metadata table not found: " + file.string());
    metadata::DuckSession& db = session.get();
    std::shared_ptr<const metadata::ResultTable> result;
    try {
        // DuckDB picks the reader from the file (CSV, Parquet, JSON); types without a TACO
        // equivalent are cast by ResultTable (small ints, time of day, ...), the others kept
        // (structs, maps, decimals, dates, zoned timestamps). In CSV and JSON, whose types
        // DuckDB guesses from the text, a DATE column becomes a timestamp (midnight UTC): a date
        // there is an acquisition day, and TACO's time type is timestamp[us]. A Parquet file
        // declares its types, and a date32 column stays a date.
        // A table whose path is not UTF-8 is read through /proc/self/fd/N (path_anchor.hpp).
        const paths::SqlPath table = paths::anchor_path(file);
        const std::string source = metadata::quote_literal(table.text);
        check_column_names(db, file, source);
        std::string extension = file.extension().string();
        for (char& ch : extension)
            ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        // DuckDB picks the reader from the name's extension; a file whose own name is not UTF-8
        // is spelt /proc/self/fd/N, without one, so the reader is named from the real name.
        std::string scan = source;
        if (table.anchor && fs::path(table.text).extension().empty()) {
            if (extension == ".parquet") scan = "read_parquet(" + source + ")";
            if (extension == ".csv" || extension == ".tsv") scan = "read_csv_auto(" + source + ")";
            if (extension == ".json" || extension == ".ndjson" || extension == ".jsonl")
                scan = "read_json_auto(" + source + ")";
        }
        auto dates = metadata::ResultTable::fetch(
            db, "SELECT column_name FROM (DESCRIBE SELECT * FROM " + scan +
                    ") WHERE column_type = 'DATE'" + (extension == ".parquet" ? " AND false" : ""));
        std::string replace;
        for (size_t r = 0; r < dates->rows(); ++r) {
            std::string col = metadata::quote_identifier(dates->get_string(r, 0));
            if (!replace.empty()) replace += ", ";
            replace += "CAST(" + col + " AS TIMESTAMP) AS " + col;
        }
        result = metadata::ResultTable::fetch(
            db, replace.empty() ? "SELECT * FROM " + scan
                                : "SELECT * REPLACE (" + replace + ") FROM " + scan);
    } catch (const QueryError& e) {
        throw IoError("cannot read metadata table " + file.string() + ": " + e.what());
    }
    return table_of(*result, file, key);
}

// Points every node at its row of the table; returns how many nodes have one.
size_t attach_rows(std::vector<Node>& nodes, Table& table) {
    size_t matched = 0;
    for (auto& n : nodes) {
        auto it = table.rows.find(n.rel);
        if (it != table.rows.end()) {
            n.row = &it->second;
            ++matched;
        }
        if (n.folder) matched += attach_rows(n.children, table);
    }
    return matched;
}

// Columns with at least one value among the samples of each level.
void collect_level_columns(const std::vector<Node>& nodes, size_t level,
                           std::vector<std::set<size_t>>& used) {
    if (used.size() <= level) used.resize(level + 1);
    for (const auto& n : nodes) {
        if (n.row) {
            for (size_t c = 0; c < n.row->size(); ++c)
                if (!(*n.row)[c].is_null()) used[level].insert(c);
        }
        if (n.folder) collect_level_columns(n.children, level + 1, used);
    }
}

// The inputs of build(): `files` holds the FILE samples in build()'s order, `next` the first not
// taken yet.
struct BuildState {
    const Table* table;
    const std::vector<std::set<size_t>>& used;
    const DirectoryOptions& options;
    std::vector<FileSample>& files;
    size_t next = 0;
    std::vector<bool> file_levels = {};  // levels holding a FILE (for options.derive_fields)
    // options.derive_fields of each FILE sample, by index in `files`, computed ahead on threads
    // (derive_file_fields); an error is rethrown where build() reaches its sample.
    std::vector<std::vector<Field>> derived = {};
    std::vector<std::exception_ptr> derive_errors = {};
};

// Takes the next FILE sample; `index` is its place in `files` (and in `derived`).
Sample take_file_sample(BuildState& state, size_t& index) {
    index = state.next++;
    FileSample& f = state.files[index];
    if (f.error) std::rethrow_exception(f.error);
    return std::move(*f.sample);
}

// The table's fields of level `level` for node `n`, set on `s` (moved out of the row when
// `move`, copied otherwise).
void set_table_fields(Sample& s, Node& n, size_t level, const BuildState& state, bool move) {
    if (!state.table || level >= state.used.size()) return;
    for (size_t c : state.used[level]) {
        const auto& col = state.table->columns[c];
        if (!n.row)
            s.set(col.name, Value::null(col.type));
        else if (move)
            s.set(col.name, std::move((*n.row)[c]));
        else
            s.set(col.name, (*n.row)[c]);
    }
}

// The FILE nodes with their level, in build()'s order (the order of `files`).
void collect_file_nodes(std::vector<Node>& nodes, size_t level,
                        std::vector<std::pair<Node*, size_t>>& out) {
    for (auto& n : nodes) {
        if (n.folder)
            collect_file_nodes(n.children, level + 1, out);
        else
            out.emplace_back(&n, level);
    }
}

// options.derive_fields of every FILE sample, on derive_threads threads. `--stac` opens each
// raster with GDAL here, the slow part, so it is shared out like `--stats`. Each sample is given
// the table's fields first (copies: build() moves them later), as the serial path did.
void derive_file_fields(std::vector<Node>& nodes, BuildState& state) {
    std::vector<std::pair<Node*, size_t>> file_nodes;
    collect_file_nodes(nodes, 0, file_nodes);
    state.derived.assign(state.files.size(), {});
    state.derive_errors.assign(state.files.size(), nullptr);
    io::parallel_for(file_nodes.size(), state.options.derive_threads, [&](size_t i) {
        const FileSample& f = state.files[i];
        if (f.error || !f.sample) return;  // build() throws the sample's own error
        try {
            Sample probe = *f.sample;
            set_table_fields(probe, *file_nodes[i].first, file_nodes[i].second, state, false);
            state.derived[i] = state.options.derive_fields(probe);
        } catch (...) {
            state.derive_errors[i] = std::current_exception();
        }
    });
}

// Marks the levels holding at least one FILE: the levels the derived columns are given to (a
// level is a depth across the whole tree, so all its samples get them, as PIT requires).
void mark_file_levels(const std::vector<Node>& nodes, size_t level, std::vector<bool>& out) {
    for (const auto& n : nodes) {
        if (out.size() <= level) out.resize(level + 1, false);
        if (n.folder)
            mark_file_levels(n.children, level + 1, out);
        else
            out[level] = true;
    }
}

// Each row belongs to one node, so its values are moved into the sample.
Tortilla build(std::vector<Node>& nodes, size_t level, BuildState& state) {
    std::vector<Sample> samples;
    samples.reserve(nodes.size());
    for (auto& n : nodes) {
        size_t file_index = 0;
        Sample s = n.folder ? Sample::folder(n.id, build(n.children, level + 1, state))
                            : take_file_sample(state, file_index);
        set_table_fields(s, n, level, state, true);
        if (state.options.derive_fields && level < state.file_levels.size() &&
            state.file_levels[level]) {
            if (n.folder) {
                s.extend_with(state.options.derive_fields(s));  // typed nulls: no file to open
            } else {
                if (state.derive_errors[file_index])
                    std::rethrow_exception(state.derive_errors[file_index]);
                s.extend_with(std::move(state.derived[file_index]));
            }
        }
        samples.push_back(std::move(s));
    }
    TortillaOptions topts;
    topts.pad_to = state.options.pad_to;
    return Tortilla(std::move(samples), topts);
}

// Keys are unique in the table and paths unique in the tree, so every row found a node exactly
// when `matched` equals the number of rows; only then is the slow listing skipped.
void check_all_keys_used(const Table& table, const std::vector<Node>& nodes, size_t matched,
                         const fs::path& file) {
    if (matched == table.rows.size()) return;
    std::set<std::string> known;
    std::vector<const std::vector<Node>*> stack{&nodes};
    while (!stack.empty()) {
        auto* list = stack.back();
        stack.pop_back();
        for (const auto& n : *list) {
            known.insert(n.rel);
            if (n.folder) stack.push_back(&n.children);
        }
    }
    std::vector<std::string> unknown;
    for (const auto& [k, v] : table.rows)
        if (!known.count(k)) unknown.push_back(k);
    std::sort(unknown.begin(), unknown.end());
    std::string list;
    for (size_t i = 0; i < std::min<size_t>(unknown.size(), 5); ++i)
        list += (i ? ", '" : "'") + unknown[i] + "'";
    if (unknown.size() > 5) list += ", ... (" + std::to_string(unknown.size() - 5) + " more)";
    throw SchemaError("metadata table " + file.string() +
                      " has rows for paths that are not in the input directory: " + list);
}

// Samples per level with and without a row of the table, and a few paths without one.
struct LevelRowCount {
    size_t with = 0, without = 0;
    std::vector<std::string> missing;  // at most 3
};

void count_rows(const std::vector<Node>& nodes, size_t level, std::vector<LevelRowCount>& out) {
    if (out.size() <= level) out.resize(level + 1);
    for (const auto& n : nodes) {
        LevelRowCount& c = out[level];
        if (n.row) {
            ++c.with;
        } else {
            ++c.without;
            if (c.missing.size() < 3) c.missing.push_back(n.rel);
        }
        if (n.folder) count_rows(n.children, level + 1, out);
    }
}

// A level where the table describes some samples but not others gets null fields for the others:
// said once per level, with counts, instead of silently. A level the table does not describe at
// all (children of described folders, usually) is what was meant and stays quiet.
void warn_about_rows_missing(const std::vector<Node>& nodes, const fs::path& file) {
    std::vector<LevelRowCount> levels;
    count_rows(nodes, 0, levels);
    for (size_t level = 0; level < levels.size(); ++level) {
        const LevelRowCount& c = levels[level];
        if (c.with == 0 || c.without == 0) continue;
        std::string examples;
        for (const auto& m : c.missing) examples += (examples.empty() ? "'" : ", '") + m + "'";
        log::emit(LogLevel::Warning, "create",
                  "metadata table " + file.string() + " has no row for " +
                      std::to_string(c.without) + " of the " + std::to_string(c.with + c.without) +
                      " samples of level " + std::to_string(level) + " (" + examples +
                      (c.without > c.missing.size() ? ", ..." : "") +
                      "); their metadata fields are null");
    }
}

}  // namespace

Tortilla tortilla_from_directory(const fs::path& dir, const DirectoryOptions& options,
                                 format::PendingSession& db) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) throw IoError("input directory not found: " + dir.string());
    io::TraceScope trace("create: scan + metadata table");
    // DuckDB reads the table on a second thread while this one lists and stats the files: the
    // two do not depend on each other and take about as long. Errors keep their order: the
    // directory's first, then the table's (get() rethrows them), then the samples'.
    std::future<Table> pending;
    if (options.metadata_table) {
        pending = std::async(std::launch::async, read_table, std::ref(db), *options.metadata_table,
                             options.key_column);
    }
    const std::string root = fs::absolute(dir).string();
    ScanContext scan_context;
    {
        std::unique_ptr<char, void (*)(void*)> real(::realpath(root.c_str(), nullptr), std::free);
        scan_context.root_real = real ? real.get() : root;
    }
    scan_context.follow_outside = options.follow_symlinks_outside;
    std::vector<Node> nodes = scan(root, "", scan_context);
    if (nodes.empty()) throw IoError("input directory " + dir.string() + " has no files");
    std::vector<FileSample> files = make_file_samples(nodes, root);
    std::optional<Table> table;
    std::vector<std::set<size_t>> used;
    if (pending.valid()) {
        table = pending.get();
        check_all_keys_used(*table, nodes, attach_rows(nodes, *table), *options.metadata_table);
        warn_about_rows_missing(nodes, *options.metadata_table);
        collect_level_columns(nodes, 0, used);
    }
    BuildState state{table ? &*table : nullptr, used, options, files};
    if (options.derive_fields) {
        mark_file_levels(nodes, 0, state.file_levels);
        derive_file_fields(nodes, state);
    }
    return build(nodes, 0, state);
}

}  // namespace taco::toolbox
