#include "legacy/v1_tables.hpp"

#include <algorithm>

#include "metadata/result_table.hpp"
#include "taco/errors.hpp"

namespace taco::legacy {
namespace {

using metadata::quote_identifier;
using metadata::quote_literal;

// One tortilla whose FOOTER feeds a level: the whole file at level 0, a FOLDER sample below.
struct Blob {
    uint64_t base = 0;  // absolute offset of its first byte (its own offsets count from here)
    uint64_t length = 0;
    int64_t parent = -1;      // internal:current_id of the FOLDER in the level above
    std::string parent_path;  // that FOLDER's relative path, ending in '/' ("" at level 0)
    std::string what;         // names it in messages
};

// Columns of the v1 FOOTER a TACO 2.0 table does not carry under their own name: tortilla:id is
// `id`, tortilla:offset/length become internal:offset/size (absolute). pandas writes its index
// as __index_level_0__ when the frame was sliced (multi-part files): not a v1 field.
bool dropped(const std::string& name) {
    return name == "tortilla:id" || name == "tortilla:offset" || name == "tortilla:length" ||
           name.rfind("__index_level_", 0) == 0;
}

// The v1 columns the specs type as String (spec/tortilla-0.5.0.md).
bool is_v1_text_column(const std::string& name) {
    return name == "tortilla:file_format" || name == "tortilla:data_split" || name == "stac:crs" ||
           name == "stac:centroid" || name.rfind("rai:admin", 0) == 0;
}

void require(const std::vector<ColumnType>& cols, const char* name, bool integer,
             const std::string& where) {
    for (const ColumnType& c : cols) {
        if (c.name != name) continue;
        const TypeId id = c.type.id();
        const bool ok =
            integer ? (id == TypeId::Int64 || id == TypeId::Int32) : id == TypeId::String;
        if (!ok) {
            throw FormatError(where + ": column '" + name + "' has type " + c.type.arrow_name() +
                              ", expected " + (integer ? "an integer" : "string"));
        }
        return;
    }
    throw FormatError(where + " has no column '" + name +
                      "', which every Tortilla 0.5 FOOTER has (spec/tortilla-0.5.0.md)");
}

std::string footer_relation(const io::MemFd& fd) {
    return "read_parquet(" + quote_literal(fd.proc_path()) + ", file_row_number = true)";
}

// Stages the rows of one blob's FOOTER into `table` (created by the first blob).
void stage_blob(metadata::DuckSession& db, const io::ByteSource& source, const Blob& blob,
                const V1Header& header, size_t index, bool first, const std::string& table) {
    const std::string where = blob.what + ": FOOTER";
    io::MemFd footer("taco-v1-footer");
    source.copy_to_fd(blob.base + header.footer_offset, header.footer_length, footer.fd(), where);
    const std::string rel = footer_relation(footer);
    std::vector<ColumnType> cols;
    try {
        cols = metadata::describe_query(db, "SELECT * FROM " + rel);
    } catch (const QueryError& e) {
        throw FormatError(where + " is not a readable Parquet file: " + e.what());
    }
    require(cols, "tortilla:id", false, where);
    require(cols, "tortilla:file_format", false, where);
    require(cols, "tortilla:offset", true, where);
    require(cols, "tortilla:length", true, where);
    // Every sample must lie in the DATA pile, between the header and the FOOTER.
    const std::string bad = db.query_scalar(
        "SELECT concat(\"tortilla:id\", ' at bytes [', \"tortilla:offset\", ', ', "
        "\"tortilla:offset\" + \"tortilla:length\", ')') FROM " +
        rel +
        " WHERE \"tortilla:offset\" IS NULL OR \"tortilla:length\" IS NULL OR "
        "\"tortilla:offset\" < " +
        std::to_string(kV1HeaderSize) +
        " OR \"tortilla:length\" < 0 OR \"tortilla:offset\" + \"tortilla:length\" > " +
        std::to_string(header.footer_offset) + " ORDER BY file_row_number LIMIT 1");
    if (!bad.empty()) {
        throw FormatError(where + ": sample " + bad + " lies outside the DATA pile [" +
                          std::to_string(kV1HeaderSize) + ", " +
                          std::to_string(header.footer_offset) + ")");
    }
    const std::string missing =
        db.query_scalar("SELECT count(*) FROM " + rel +
                        " WHERE \"tortilla:id\" IS NULL OR \"tortilla:file_format\" IS NULL");
    if (missing != "0") {
        throw FormatError(where + ": " + missing +
                          " rows have no tortilla:id or tortilla:file_format");
    }
    std::string kept;
    for (const ColumnType& c : cols) {
        if (dropped(c.name) || c.name == "file_row_number") continue;
        // pandas writes a column that is None in every row with Arrow's null type, which reads
        // back as INTEGER; the v1 text columns stay text (VARCHAR) whatever their rows hold.
        if (is_v1_text_column(c.name) && c.type.id() != TypeId::String) {
            kept += ", CAST(" + quote_identifier(c.name) + " AS VARCHAR) AS " +
                    quote_identifier(c.name);
        } else {
            kept += ", " + quote_identifier(c.name);
        }
    }
    const std::string select =
        "SELECT \"tortilla:id\" AS id, CASE WHEN upper(\"tortilla:file_format\") = 'TORTILLA' "
        "THEN 'FOLDER' ELSE 'FILE' END AS type" +
        kept + ", CAST(" + std::to_string(blob.base) +
        " + \"tortilla:offset\" AS BIGINT) AS __offset" +
        ", CAST(\"tortilla:length\" AS BIGINT) AS __size, " + std::to_string(index) +
        " AS __blob, file_row_number AS __row, CAST(" + std::to_string(blob.parent) +
        " AS BIGINT) AS __parent, " + quote_literal(blob.parent_path) + " AS __parent_path FROM " +
        rel;
    if (first) {
        db.exec("CREATE TEMP TABLE " + table + " AS " + select);
        return;
    }
    try {
        db.exec("INSERT INTO " + table + " BY NAME " + select);
    } catch (const QueryError&) {
        // A nested tortilla with a column its siblings lack: widen the table (NULL elsewhere).
        db.exec("CREATE OR REPLACE TEMP TABLE " + table + " AS SELECT * FROM " + table +
                " UNION ALL BY NAME " + select);
    }
}

}  // namespace

V1Tables read_v1_tables(metadata::DuckSession& db, const io::ByteSource& source,
                        const std::string& name) {
    V1Tables out;
    out.header = read_v1_header(source, 0, source.size(), name, false);
    if (out.header.kind == V1Kind::Taco) {
        out.collection_text.resize(out.header.collection_length);
        source.read_at(out.header.collection_offset, out.collection_text.data(),
                       out.collection_text.size(), name + ": COLLECTION");
    }
    // The tortilla of a TACO ends where its COLLECTION starts.
    const uint64_t top_length =
        out.header.kind == V1Kind::Taco ? out.header.collection_offset : source.size();
    std::vector<Blob> blobs{{0, top_length, -1, "", name}};
    std::vector<V1Header> headers{out.header};
    for (size_t level = 0; !blobs.empty(); ++level) {
        const std::string table = "__taco_v1_level";
        for (size_t k = 0; k < blobs.size(); ++k)
            stage_blob(db, source, blobs[k], headers[k], k, k == 0, table);
        const std::string internal =
            ", row_number() OVER (ORDER BY __blob, __row) - 1 AS \"internal:current_id\", " +
            std::string(level == 0 ? "row_number() OVER (ORDER BY __blob, __row) - 1"
                                   : "__parent") +
            " AS \"internal:parent_id\", __offset AS \"internal:offset\", __size AS "
            "\"internal:size\"" +
            (level == 0 ? ""
                        : ", concat(__parent_path, id, CASE WHEN type = 'FOLDER' THEN '/' ELSE "
                          "'' END) AS \"internal:relative_path\"");
        const std::string final_table = "__taco_v1_final";
        db.exec("CREATE OR REPLACE TEMP TABLE " + final_table +
                " AS SELECT * EXCLUDE (__offset, "
                "__size, __blob, __row, __parent, __parent_path)" +
                internal + " FROM " + table + " ORDER BY __blob, __row");
        db.exec("DROP TABLE " + table);
        auto file = std::make_unique<io::MemFd>("taco-v1-level");
        db.exec("COPY " + final_table + " TO " + quote_literal(file->proc_path()) +
                " (FORMAT parquet, USE_TMP_FILE false)");
        out.columns.push_back(metadata::describe_query(db, "SELECT * FROM " + final_table));
        out.rows.push_back(std::stoull(db.query_scalar("SELECT count(*) FROM " + final_table)));
        out.levels.push_back(std::move(file));

        // The FOLDERs of this level are the blobs of the next one.
        auto folders = metadata::ResultTable::fetch(
            db, "SELECT id, \"internal:current_id\", \"internal:offset\", \"internal:size\", " +
                    std::string(level == 0 ? "concat(id, '/')" : "\"internal:relative_path\"") +
                    " FROM " + final_table + " WHERE type = 'FOLDER' ORDER BY " +
                    "\"internal:current_id\"");
        std::vector<Blob> next;
        std::vector<V1Header> next_headers;
        for (size_t r = 0; r < folders->rows(); ++r) {
            Blob b;
            b.parent = folders->get_int(r, 1);
            b.base = static_cast<uint64_t>(folders->get_int(r, 2));
            b.length = static_cast<uint64_t>(folders->get_int(r, 3));
            b.parent_path = std::string(folders->get_string(r, 4));
            b.what = name + ": nested tortilla '" +
                     b.parent_path.substr(0, b.parent_path.size() - 1) + "'";
            next_headers.push_back(read_v1_header(source, b.base, b.length, b.what, true));
            out.folders[b.base] = {level, b.parent};
            next.push_back(std::move(b));
        }
        db.exec("DROP TABLE " + final_table);
        blobs = std::move(next);
        headers = std::move(next_headers);
    }
    return out;
}

}  // namespace taco::legacy
