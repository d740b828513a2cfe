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

// FOOTERs staged per statement: one read_parquet over many in-memory files costs about what one
// file did (500 nested tortillas: ~4 ms of CPU each one by one). Bounded so that the open memfds
// stay far below the descriptor limit.
constexpr size_t kBatch = 256;

// Stages the rows of blobs [begin, end) of one level into `table` (created by the first batch).
void stage_batch(metadata::DuckSession& db, const io::ByteSource& source,
                 const std::vector<Blob>& blobs, const std::vector<V1Header>& headers, size_t begin,
                 size_t end, const std::string& table) {
    std::vector<std::unique_ptr<io::MemFd>> footers;
    std::string files, map;
    for (size_t k = begin; k < end; ++k) {
        auto fd = std::make_unique<io::MemFd>("taco-v1-footer");
        source.copy_to_fd(blobs[k].base + headers[k].footer_offset, headers[k].footer_length,
                          fd->fd(), blobs[k].what + ": FOOTER");
        const std::string path = quote_literal(fd->proc_path());
        files += (files.empty() ? "" : ", ") + path;
        map += std::string(map.empty() ? "" : ", ") + "(" + path + ", " + std::to_string(k) + ", " +
               std::to_string(blobs[k].base) + ", " + std::to_string(blobs[k].parent) + ", " +
               quote_literal(blobs[k].parent_path) + ", " +
               std::to_string(headers[k].footer_offset) + ")";
        footers.push_back(std::move(fd));
    }
    const std::string rel = "read_parquet([" + files +
                            "], filename = '__taco_footer', file_row_number = true, "
                            "union_by_name = true)";
    std::vector<ColumnType> cols;
    try {
        cols = metadata::describe_query(db, "SELECT * FROM " + rel);
    } catch (const QueryError& e) {
        // Which FOOTER: each one alone.
        for (size_t k = begin; k < end; ++k) {
            try {
                metadata::describe_query(db, "SELECT * FROM read_parquet(" +
                                                 quote_literal(footers[k - begin]->proc_path()) +
                                                 ")");
            } catch (const QueryError& one) {
                throw FormatError(blobs[k].what +
                                  ": FOOTER is not a readable Parquet file: " + one.what());
            }
        }
        throw FormatError(blobs[begin].what + ": FOOTERs not readable together: " + e.what());
    }
    const std::string where = blobs[begin].what + ": FOOTER";
    require(cols, "tortilla:id", false, where);
    require(cols, "tortilla:file_format", false, where);
    require(cols, "tortilla:offset", true, where);
    require(cols, "tortilla:length", true, where);
    db.exec("CREATE OR REPLACE TEMP TABLE __taco_v1_map AS SELECT * FROM (VALUES " + map +
            ") t(__taco_footer, __blob, __base, __parent, __parent_path, __fo)");
    const std::string joined = rel + " f JOIN __taco_v1_map m ON f.__taco_footer = m.__taco_footer";
    // Every sample must lie in its DATA pile, between the header and the FOOTER; every row needs
    // an id and a file format.
    auto bad = metadata::ResultTable::fetch(
        db,
        "SELECT m.__blob, concat('sample ', coalesce(\"tortilla:id\", '(no tortilla:id)'), "
        "' at bytes [', \"tortilla:offset\", ', ', \"tortilla:offset\" + "
        "\"tortilla:length\", ') lies outside the DATA pile [" +
            std::to_string(kV1HeaderSize) + ", ', m.__fo, ')') FROM " + joined +
            " WHERE \"tortilla:offset\" IS NULL OR \"tortilla:length\" IS NULL OR "
            "\"tortilla:offset\" < " +
            std::to_string(kV1HeaderSize) +
            " OR \"tortilla:length\" < 0 OR \"tortilla:offset\" + \"tortilla:length\" > "
            "m.__fo OR \"tortilla:id\" IS NULL OR \"tortilla:file_format\" IS NULL "
            "ORDER BY m.__blob, file_row_number LIMIT 1");
    if (bad->rows() > 0) {
        const Blob& b = blobs[static_cast<size_t>(bad->get_int(0, 0))];
        std::string text(bad->get_string(0, 1));
        if (text.find("(no tortilla:id)") != std::string::npos ||
            text.find("bytes [,") != std::string::npos) {
            text =
                "a row without tortilla:id, tortilla:file_format, tortilla:offset or "
                "tortilla:length";
        }
        throw FormatError(b.what + ": FOOTER: " + text);
    }
    std::string kept;
    for (const ColumnType& c : cols) {
        if (dropped(c.name) || c.name == "file_row_number" || c.name == "__taco_footer") continue;
        // pandas writes a column that is None in every row with Arrow's null type, which reads
        // back as INTEGER; the v1 text columns stay text (VARCHAR) whatever their rows hold.
        if (is_v1_text_column(c.name) && c.type.id() != TypeId::String) {
            kept += ", CAST(f." + quote_identifier(c.name) + " AS VARCHAR) AS " +
                    quote_identifier(c.name);
        } else {
            kept += ", f." + quote_identifier(c.name);
        }
    }
    const std::string select =
        "SELECT \"tortilla:id\" AS id, CASE WHEN upper(\"tortilla:file_format\") = 'TORTILLA' "
        "THEN 'FOLDER' ELSE 'FILE' END AS type" +
        kept +
        ", CAST(m.__base + \"tortilla:offset\" AS BIGINT) AS __offset, "
        "CAST(\"tortilla:length\" AS BIGINT) AS __size, m.__blob AS __blob, file_row_number AS "
        "__row, CAST(m.__parent AS BIGINT) AS __parent, m.__parent_path AS __parent_path FROM " +
        joined;
    if (begin == 0) {
        db.exec("CREATE TEMP TABLE " + table + " AS " + select);
    } else {
        try {
            db.exec("INSERT INTO " + table + " BY NAME " + select);
        } catch (const QueryError&) {
            // Nested tortillas with a column the earlier ones lack: widen (NULL elsewhere).
            db.exec("CREATE OR REPLACE TEMP TABLE " + table + " AS SELECT * FROM " + table +
                    " UNION ALL BY NAME " + select);
        }
    }
    db.exec("DROP TABLE __taco_v1_map");
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
        for (size_t k = 0; k < blobs.size(); k += kBatch)
            stage_batch(db, source, blobs, headers, k, std::min(blobs.size(), k + kBatch), table);
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
