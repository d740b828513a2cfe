#include "query/load_checks.hpp"

#include "taco/errors.hpp"

namespace taco::query {

void check_root_count(const format::OpenedDataset& src, metadata::DuckSession& db,
                      const std::string& level0, const format::ParquetFooter* footer) {
    const std::string rows = footer ? std::to_string(footer->num_rows)
                                    : db.query_scalar("SELECT count(*) FROM read_parquet(" +
                                                      metadata::quote_literal(level0) + ")");
    const uint64_t declared = src.collection.pit.root_n;
    if (rows != std::to_string(declared)) {
        throw FormatError(src.path.string() + ": COLLECTION.json taco:pit_schema root.n is " +
                          std::to_string(declared) + ", but " + src.levels[0].name + " has " +
                          rows +
                          " rows; the metadata does not belong together (a damaged header or a "
                          "table from another dataset)");
    }
}

void check_level_count(const format::OpenedDataset& src) {
    const size_t declared = src.collection.pit.hierarchy.size() + 1;
    if (src.levels.size() >= declared) return;
    const std::string missing =
        src.format == ContainerFormat::Folder
            ? "METADATA/level" + std::to_string(src.levels.size()) + ".parquet is missing"
            : "there are only " + std::to_string(src.levels.size()) + " level tables";
    throw FormatError(src.path.string() + ": COLLECTION.json taco:pit_schema describes " +
                      std::to_string(declared) + " levels (0.." + std::to_string(declared - 1) +
                      "), but " + missing +
                      "; the samples of the missing levels would be lost (a damaged or "
                      "incomplete dataset)");
}

void check_level_rows(const format::OpenedDataset& src, size_t level, uint64_t rows) {
    if (level == 0 || level > src.collection.pit.hierarchy.size()) return;
    uint64_t declared = 0;
    for (const PitPattern& p : src.collection.pit.hierarchy[level - 1]) declared += p.n;
    if (rows == declared) return;
    throw FormatError(src.path.string() + ": COLLECTION.json taco:pit_schema gives level " +
                      std::to_string(level) + " " + std::to_string(declared) +
                      " rows (the n of its patterns), but " + src.levels[level].name + " has " +
                      std::to_string(rows) +
                      "; the metadata does not belong together (a header slot pointing at "
                      "another level's table, or a table from another dataset)");
}

void check_level0_ids(const format::OpenedDataset& src, metadata::DuckSession& db,
                      const std::string& level0, const format::ParquetFooter* footer) {
    if (footer) {
        const auto id = footer->null_counts.find("id");
        if (id != footer->null_counts.end() && id->second == 0) return;
    }
    const std::string file = metadata::quote_literal(level0);
    // The footer's statistics answer without reading the column; a file without them is scanned.
    const std::string nulls = db.query_scalar(
        "SELECT coalesce(CAST(sum(stats_null_count) AS VARCHAR), 'unknown') FROM "
        "parquet_metadata(" +
        file + ") WHERE path_in_schema = 'id'");
    if (nulls == "0" || nulls.empty()) return;
    const std::string first =
        db.query_scalar("SELECT CAST(min(file_row_number) AS VARCHAR) FROM read_parquet(" + file +
                        ", file_row_number = true) WHERE \"id\" IS NULL");
    if (first.empty() || first == "NULL") return;
    const std::string count =
        db.query_scalar("SELECT count(*) FROM read_parquet(" + file + ") WHERE \"id\" IS NULL");
    throw FormatError(src.path.string() + ": " + src.levels[0].name + " row " + first +
                      " has a NULL id (" + count + " row" + (count == "1" ? "" : "s") +
                      " in all); every sample needs an id, and a row without one would be hidden "
                      "like padding. Run `taco validate` for the full list");
}

}  // namespace taco::query
