#include "query/load_checks.hpp"

#include "taco/errors.hpp"

namespace taco::query {

void check_root_count(const format::OpenedDataset& src, metadata::DuckSession& db,
                      const std::string& level0) {
    const std::string rows = db.query_scalar("SELECT count(*) FROM read_parquet(" +
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

}  // namespace taco::query
