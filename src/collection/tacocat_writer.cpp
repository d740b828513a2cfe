// create_tacocat / create_tacollection: the consolidated level tables are one DuckDB COPY per
// level over the parts' level Parquet files (copied out of each ZIP into memory), in part order,
// with `internal:source_file` added and the columns ordered as the reference orders them
// (FORMAT.md §6.1: id, type, then every other column in code-point order).
#include <algorithm>
#include <set>

#include "collection/tacocat_file.hpp"
#include "collection/tacocat_write.hpp"
#include "collection/tacollection.hpp"
#include "format/collection_parse.hpp"
#include "format/dataset_open.hpp"
#include "io/file.hpp"
#include "io/memfd.hpp"
#include "io/staged_output.hpp"
#include "metadata/result_table.hpp"
#include "model/utf8.hpp"
#include "paths/path_anchor.hpp"
#include "query/dataset_context.hpp"
#include "taco/errors.hpp"
#include "taco/tacocat.hpp"

namespace fs = std::filesystem;

namespace taco {
namespace {

using metadata::quote_identifier;
using metadata::quote_literal;

constexpr const char* kSourceFile = "internal:source_file";

struct OpenedPart {
    fs::path path;
    std::string file;
    format::OpenedDataset opened;
};

std::vector<OpenedPart> open_parts(const std::vector<fs::path>& paths,
                                   const std::vector<std::string>& given_names = {}) {
    if (paths.empty()) throw IoError("a collection needs at least one part (a .tacozip file)");
    std::vector<OpenedPart> out;
    std::set<std::string> names;
    for (size_t k = 0; k < paths.size(); ++k) {
        const fs::path& path = paths[k];
        std::error_code ec;
        if (fs::is_directory(path, ec)) {
            throw FormatError("part '" + path.string() +
                              "' is a directory: the parts of a collection are TACO ZIP files "
                              "(.tacozip); `taco convert` makes one of a FOLDER dataset");
        }
        if (!fs::is_regular_file(path, ec)) {
            throw IoError("part '" + path.string() + "' is missing (no such file)");
        }
        OpenedPart p{path, k < given_names.size() ? given_names[k] : path.filename().string(),
                     format::open_zip_dataset(path)};
        if (!model::is_valid_utf8(p.file)) {
            throw IoError("part '" + path.string() +
                          "': its file name is not UTF-8, and internal:source_file (a UTF-8 "
                          "string column) names parts by file name; rename the part");
        }
        if (!names.insert(p.file).second) {
            throw IoError("part file name '" + p.file +
                          "' appears twice; internal:source_file names parts by file name only");
        }
        out.push_back(std::move(p));
    }
    return out;
}

format::OrderedJson merged_document(const std::vector<OpenedPart>& parts) {
    std::vector<collection::PartCollection> docs;
    for (const OpenedPart& p : parts) {
        docs.push_back({p.file, p.path.string(),
                        format::parse_json_document(p.opened.collection.text, p.file)});
    }
    return collection::merge_collections(docs);
}

std::string column_list(const std::vector<ColumnType>& cols) {
    std::string out;
    for (const ColumnType& c : cols)
        out += (out.empty() ? "" : ", ") + c.name + " " + c.type.arrow_name();
    return out;
}

// The reference's order: with one part, its own order plus the part column last; with more,
// id and type first, then every other column (internal:* included) in code-point order.
std::vector<std::string> ordered_columns(const std::vector<ColumnType>& cols, size_t parts) {
    std::vector<std::string> names;
    for (const ColumnType& c : cols) names.push_back(c.name);
    names.push_back(kSourceFile);
    if (parts == 1) return names;
    std::vector<std::string> rest;
    for (const std::string& n : names)
        if (n != "id" && n != "type") rest.push_back(n);
    std::sort(rest.begin(), rest.end());
    std::vector<std::string> out = {"id", "type"};
    out.insert(out.end(), rest.begin(), rest.end());
    return out;
}

// Writes level `level` of every part, in order, as one Parquet file at `target`.
void write_level(metadata::DuckSession& db, const std::vector<OpenedPart>& parts,
                 const std::vector<query::StagedLevels>& staged, size_t level,
                 const std::string& target) {
    std::vector<ColumnType> first;
    std::string branches;
    for (size_t k = 0; k < parts.size(); ++k) {
        const std::string scan = "read_parquet(" + quote_literal(staged[k].files[level]) + ")";
        const std::vector<ColumnType> cols = metadata::describe_query(db, "SELECT * FROM " + scan);
        if (k == 0) {
            first = cols;
            if (query::has_column(cols, kSourceFile)) {
                throw SchemaError("part '" + parts[k].path.string() + "': METADATA/level" +
                                  std::to_string(level) +
                                  ".parquet already has a column 'internal:source_file'");
            }
        } else if (!(cols == first)) {
            throw SchemaError("part '" + parts[k].path.string() +
                              "': the columns of METADATA/level" + std::to_string(level) +
                              ".parquet differ from the first part '" + parts[0].path.string() +
                              "': " + column_list(cols) + " vs " + column_list(first));
        }
        branches += (branches.empty() ? "" : " UNION ALL ") + std::string("SELECT *, ") +
                    quote_literal(parts[k].file) + " AS " + quote_identifier(kSourceFile) +
                    " FROM " + scan;
    }
    std::string select;
    for (const std::string& name : ordered_columns(first, parts.size()))
        select += (select.empty() ? "" : ", ") + quote_identifier(name);
    // V2 value encodings as the dataset writer uses them (FORMAT-DECISIONS "Metadata Parquet"):
    // smaller and faster to decode, except with int32 columns, which pyarrow then misreads.
    const bool v2 = std::none_of(first.begin(), first.end(), [](const ColumnType& c) {
        return c.type.arrow_name().find("int32") != std::string::npos;
    });
    const paths::SqlPath to = paths::anchor_path(target);  // not UTF-8: /proc/self/fd/N/...
    db.exec("COPY (SELECT " + select + " FROM (" + branches + ")) TO " + quote_literal(to.text) +
            " (FORMAT parquet, COMPRESSION zstd, COMPRESSION_LEVEL 19, ROW_GROUP_SIZE 65536" +
            (v2 ? ", PARQUET_VERSION V2" : "") + ", USE_TMP_FILE false)");
}

void write_text(const fs::path& path, const std::string& text) {
    io::File f = io::File::create_exclusive(path);
    f.write_all(text.data(), text.size());
    f.close();
}

}  // namespace

TacocatFormat parse_tacocat_format(const std::string& name) {
    if (name == "folder") return TacocatFormat::Folder;
    if (name == "file") return TacocatFormat::File;
    throw QueryError("unknown TACOCAT format '" + name + "'; expected folder or file");
}

std::string tacollection_json(const std::vector<fs::path>& parts) {
    return format::dump_python_style(merged_document(open_parts(parts)), true);
}

fs::path create_tacollection(const std::vector<fs::path>& parts, const fs::path& output_dir) {
    return create_tacollection_file(parts, output_dir / "TACOLLECTION.json");
}

fs::path create_tacollection_file(const std::vector<fs::path>& parts, const fs::path& output) {
    const std::string text = tacollection_json(parts);
    io::StagedOutput out(output, false);
    write_text(out.staging(), text);
    out.commit();
    return out.target();
}

void collection::write_tacocat_at(const std::vector<fs::path>& paths,
                                  const std::vector<std::string>& names, const fs::path& staging,
                                  TacocatFormat format, metadata::DuckSession* shared_db) {
    const std::vector<OpenedPart> parts = open_parts(paths, names);
    format::OrderedJson doc = merged_document(parts);  // checks PIT and field schemas first
    const size_t levels = parts[0].opened.levels.size();
    for (const OpenedPart& p : parts) {
        if (p.opened.levels.size() != levels) {
            throw SchemaError("part '" + p.path.string() + "' has " +
                              std::to_string(p.opened.levels.size()) +
                              " level tables, the first part '" + parts[0].path.string() +
                              "' has " + std::to_string(levels));
        }
    }
    if (levels > collection::kTacocatMaxLevels) {
        throw SchemaError("part '" + parts[0].path.string() + "' has " + std::to_string(levels) +
                          " levels; a TACOCAT index holds at most 6");
    }
    std::vector<query::StagedLevels> staged;
    for (const OpenedPart& p : parts) staged.push_back(query::stage_levels(p.opened));
    std::unique_ptr<metadata::DuckSession> own_db;
    if (!shared_db) own_db = std::make_unique<metadata::DuckSession>();
    metadata::DuckSession& db = shared_db ? *shared_db : *own_db;

    if (format == TacocatFormat::Folder) {
        fs::create_directories(staging);
        for (size_t level = 0; level < levels; ++level) {
            write_level(db, parts, staged, level,
                        (staging / ("level" + std::to_string(level) + ".parquet")).string());
        }
        write_text(staging / "COLLECTION.json", format::dump_python_style(doc, true));
        return;
    }

    // __TACOCAT__: the same document, plus the `_tacocat` provenance block legacy readers
    // expect (FORMAT.md §6.2: version, num_datasets, dataset_sources sorted).
    std::vector<std::string> sorted_names;
    for (const OpenedPart& p : parts) sorted_names.push_back(p.file);
    std::sort(sorted_names.begin(), sorted_names.end());
    format::OrderedJson block = format::OrderedJson::object();
    block["version"] = 1;
    block["num_datasets"] = parts.size();
    block["dataset_sources"] = sorted_names;
    doc["_tacocat"] = std::move(block);
    const std::string json = format::dump_python_style(doc, true);

    std::vector<std::unique_ptr<io::MemFd>> blobs;
    collection::TacocatHeader header;
    uint64_t position = collection::kTacocatHeaderSize;
    for (size_t level = 0; level < levels; ++level) {
        blobs.push_back(std::make_unique<io::MemFd>("taco-tacocat-level"));
        write_level(db, parts, staged, level, blobs.back()->proc_path());
        header.levels.emplace_back(position, blobs.back()->size());
        position += blobs.back()->size();
    }
    header.collection = {position, json.size()};
    io::File f = io::File::create_exclusive(staging);
    const auto head = collection::encode_tacocat_header(header);
    f.write_all(head.data(), head.size());
    for (const auto& blob : blobs) {
        std::string bytes(static_cast<size_t>(blob->size()), '\0');
        io::pread_exact(blob->fd(), 0, bytes.data(), bytes.size(), "a consolidated level table");
        f.write_all(bytes.data(), bytes.size());
    }
    f.write_all(json.data(), json.size());
    f.close();
}

fs::path create_tacocat(const std::vector<fs::path>& paths, const fs::path& output_dir,
                        TacocatFormat format) {
    open_parts(paths);  // a missing part is named before anything is reserved
    const fs::path target =
        output_dir / (format == TacocatFormat::Folder ? collection::kTacocatFolderName
                                                      : collection::kTacocatFileName);
    io::StagedOutput out(target, false);
    collection::write_tacocat_at(paths, {}, out.staging(), format);
    out.commit();
    return out.target();
}

}  // namespace taco
