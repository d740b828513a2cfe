#include "validate/validate_collection.hpp"

#include <algorithm>

#include "io/location.hpp"
#include "model/join.hpp"
#include "query/dataset_context.hpp"
#include "query/vsi_path.hpp"
#include "taco/errors.hpp"
#include "validate/validate_checks.hpp"

namespace taco::collection {
namespace {

using metadata::quote_identifier;
using metadata::quote_literal;

// Rows of `a` missing from `b` (as a multiset).
int64_t missing_rows(metadata::DuckSession& db, const std::string& a, const std::string& b) {
    return std::stoll(db.query_scalar("SELECT count(*) FROM ((" + a + ") EXCEPT ALL (" + b + "))"));
}

constexpr const char* kRowKey =
    "\"id\", CAST(\"internal:offset\" AS BIGINT), CAST(\"internal:size\" AS BIGINT)";

// The part's columns other than the row key, by name: the index copies every one of them
// unchanged (FORMAT.md §6.1), so each must be there, with the part's values.
std::vector<std::string> value_columns(const std::vector<ColumnType>& part_columns) {
    std::vector<std::string> out;
    for (const ColumnType& c : part_columns)
        if (c.name != "id" && c.name != "internal:offset" && c.name != "internal:size")
            out.push_back(c.name);
    return out;
}

// One row per sample: its key and a hash of `columns` (any type hashes, lists and geometry
// blobs included), so a value the index changed shows as a row missing from the part.
std::string keyed_values_sql(const std::string& file, const std::vector<std::string>& columns,
                             const std::string& where) {
    std::string args;
    for (const std::string& c : columns) args += (args.empty() ? "" : ", ") + quote_identifier(c);
    const std::string values = columns.empty() ? "" : ", hash(" + args + ")";
    return "SELECT " + std::string(kRowKey) + values + " FROM read_parquet(" + quote_literal(file) +
           ")" + where;
}

// Compares one level of the index with the same level of part `file`: first which rows
// (id, offset, size), then, when those agree, every other value the part holds.
void compare_level(metadata::DuckSession& db, format::FindingSink& sink, const std::string& index,
                   const std::string& file, size_t level, const std::string& index_table,
                   const std::vector<ColumnType>& index_columns, const std::string& part_table) {
    const std::string table = "level" + std::to_string(level) + ".parquet";
    const std::string of_part =
        " WHERE " + quote_identifier("internal:source_file") + " = " + quote_literal(file);
    const std::string in_index = keyed_values_sql(index_table, {}, of_part);
    const std::string in_part = keyed_values_sql(part_table, {}, "");
    const int64_t stale = missing_rows(db, in_index, in_part);
    const int64_t absent = missing_rows(db, in_part, in_index);
    if (stale || absent) {
        sink.error("collection.part-mismatch", index,
                   table + " disagrees with part '" + file + "': " + std::to_string(stale) +
                       " of its rows (id, offset, size) are not in the part, " +
                       std::to_string(absent) +
                       " rows of the part are not in the index (stale index?)");
        return;
    }
    const std::vector<std::string> columns = value_columns(metadata::describe_query(
        db, "SELECT * FROM read_parquet(" + quote_literal(part_table) + ")"));
    std::vector<std::string> missing;
    for (const std::string& c : columns)
        if (!query::has_column(index_columns, c)) missing.push_back(c);
    if (!missing.empty()) {
        sink.error("collection.part-mismatch", index,
                   table + " lacks column(s) " + join_text(missing) + " of part '" + file + "'");
        return;
    }
    const std::string index_values = keyed_values_sql(index_table, columns, of_part);
    const std::string part_values = keyed_values_sql(part_table, columns, "");
    const int64_t changed = missing_rows(db, index_values, part_values);
    if (changed == 0) return;
    const std::string first =
        db.query_scalar("SELECT \"id\" FROM ((" + index_values + ") EXCEPT ALL (" + part_values +
                        ")) ORDER BY 1 LIMIT 1");
    sink.error("collection.part-values", index,
               table + " disagrees with part '" + file + "': " + std::to_string(changed) +
                   " of its rows hold other values than the part's (first: sample '" + first +
                   "'; compared: " + join_text(columns) +
                   "). Readers of the index would see values the part does not hold.");
}

// The checks of an index already opened: `remote` parts are checked as remote datasets are
// (their metadata), local ones as TACO ZIPs.
void validate_opened(const format::OpenedDataset& opened, const std::string& index,
                     format::FindingSink& sink, metadata::DuckSession& db,
                     const ValidateOptions& options, bool remote) {
    query::StagedLevels staged;
    std::shared_ptr<const query::CollectionParts> parts;
    std::vector<std::vector<ColumnType>> columns;  // each level's, in the index
    try {
        staged = query::stage_levels(opened);
        for (const std::string& file : staged.files) {
            columns.push_back(metadata::describe_query(
                db, "SELECT * FROM read_parquet(" + quote_literal(file) + ")"));
        }
        parts = query::index_collection(db, opened, staged.files, columns);
    } catch (const Error& e) {
        sink.error("collection.index", index, e.what());
        return;
    }
    format::check_collection(sink, opened.collection.text, index + ": COLLECTION.json");
    for (const std::string& file : parts->missing) {
        // load() tolerates it (the index alone is queryable); a valid collection has every part.
        sink.error("collection.part-missing", index,
                   "part '" + file + "' is missing (expected " + query::part_path(*parts, file) +
                       "); the index names it in internal:source_file");
    }
    for (const std::string& file : parts->files) {
        if (std::find(parts->missing.begin(), parts->missing.end(), file) != parts->missing.end())
            continue;
        const std::string path = query::part_path(*parts, file);
        format::OpenedDataset part;
        query::StagedLevels part_levels;
        try {
            if (remote) {
                format::validate_remote(path, sink, db);
                part = format::open_remote_dataset(path);
            } else {
                format::validate_zip(path, sink, db, options);
                part = format::open_zip_dataset(path);
            }
            part_levels = query::stage_levels(part);
        } catch (const Error&) {
            continue;  // validate_zip / validate_remote reported it
        }
        if (part_levels.files.size() != staged.files.size()) {
            sink.error("collection.part-levels", path,
                       "the part has " + std::to_string(part_levels.files.size()) +
                           " level tables, the index " + index + " has " +
                           std::to_string(staged.files.size()));
            continue;
        }
        for (size_t level = 0; level < staged.files.size(); ++level) {
            try {
                compare_level(db, sink, index, file, level, staged.files[level], columns[level],
                              part_levels.files[level]);
            } catch (const QueryError& e) {
                sink.error("collection.part-mismatch", index,
                           "cannot compare level" + std::to_string(level) + ".parquet with part '" +
                               file + "': " + e.what());
            }
        }
    }
}

}  // namespace

void validate_collection(const IndexLocation& where, format::FindingSink& sink,
                         metadata::DuckSession& db, const ValidateOptions& options) {
    const std::string index = where.index.string();
    format::OpenedDataset opened;
    try {
        opened = open_index(where, "");
    } catch (const Error& e) {
        sink.error("collection.index", index, e.what());
        return;
    }
    validate_opened(opened, index, sink, db, options, false);
}

void validate_remote_collection(const std::string& index, IndexLayout layout,
                                format::FindingSink& sink, metadata::DuckSession& db,
                                const ValidateOptions& options) {
    format::OpenedDataset opened;
    try {
        opened = open_remote_index(io::parse_location(index), layout, "");
    } catch (const Error& e) {
        sink.error("collection.index", index, e.what());
        return;
    }
    validate_opened(opened, index, sink, db, options, true);
}

}  // namespace taco::collection
