#include "validate/validate_collection.hpp"

#include "io/location.hpp"
#include "query/dataset_context.hpp"
#include "query/vsi_path.hpp"
#include "taco/errors.hpp"
#include "validate/validate_checks.hpp"

namespace taco::collection {
namespace {

using metadata::quote_identifier;
using metadata::quote_literal;

// Rows of `a` missing from `b` (as a multiset), by id and byte range.
int64_t missing_rows(metadata::DuckSession& db, const std::string& a, const std::string& b) {
    return std::stoll(db.query_scalar("SELECT count(*) FROM ((" + a + ") EXCEPT ALL (" + b + "))"));
}

// The checks of an index already opened: `remote` parts are checked as remote datasets are
// (their metadata), local ones as TACO ZIPs.
void validate_opened(const format::OpenedDataset& opened, const std::string& index,
                     format::FindingSink& sink, metadata::DuckSession& db,
                     const ValidateOptions& options, bool remote) {
    query::StagedLevels staged;
    std::shared_ptr<const query::CollectionParts> parts;
    try {
        staged = query::stage_levels(opened);
        std::vector<std::vector<ColumnType>> columns;
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
    const std::string ids =
        "\"id\", CAST(\"internal:offset\" AS BIGINT), "
        "CAST(\"internal:size\" AS BIGINT)";
    for (const std::string& file : parts->files) {
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
            const std::string in_index =
                "SELECT " + ids + " FROM read_parquet(" + quote_literal(staged.files[level]) +
                ") WHERE " + quote_identifier("internal:source_file") + " = " + quote_literal(file);
            const std::string in_part = "SELECT " + ids + " FROM read_parquet(" +
                                        quote_literal(part_levels.files[level]) + ")";
            try {
                const int64_t stale = missing_rows(db, in_index, in_part);
                const int64_t absent = missing_rows(db, in_part, in_index);
                if (stale || absent) {
                    sink.error("collection.part-mismatch", index,
                               "level" + std::to_string(level) + ".parquet disagrees with part '" +
                                   file + "': " + std::to_string(stale) +
                                   " of its rows (id, offset, size) are not in the part, " +
                                   std::to_string(absent) +
                                   " rows of the part are not in the index (stale index?)");
                }
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
