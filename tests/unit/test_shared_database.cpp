// Sessions sharing one DuckDB database (a multi-part create: one database, a connection per part
// and one for the .tacocat index): each writes its own Parquet files at the same time, and the
// database outlives the session it was opened by.
#include <gtest/gtest.h>

#include <thread>

#include "metadata/duckdb_session.hpp"
#include "test_util.hpp"

using namespace taco;
using namespace taco::metadata;
using taco::test::TempDir;

namespace {

void write_ids(DuckSession& db, const std::string& path, const std::string& prefix, int n) {
    std::vector<std::string> ids;
    for (int i = 0; i < n; ++i) ids.push_back(prefix + std::to_string(i));
    std::vector<std::string_view> views(ids.begin(), ids.end());
    db.write_parquet({TableColumn::of_strings("id", views)}, path, ParquetOptions{});
}

TEST(SharedDatabase, ConnectionsWriteTheirOwnTablesConcurrently) {
    TempDir dir;
    DuckSession root(1);
    std::vector<std::unique_ptr<DuckSession>> parts;
    for (int k = 0; k < 4; ++k) parts.push_back(root.another_connection());
    std::vector<std::thread> threads;
    for (int k = 0; k < 4; ++k) {
        threads.emplace_back([&, k] {
            // Each write twice: the per-session stream function is registered once and reused.
            for (int round = 0; round < 2; ++round) {
                write_ids(
                    *parts[k],
                    (dir / ("p" + std::to_string(k) + "_" + std::to_string(round) + ".parquet"))
                        .string(),
                    "part" + std::to_string(k) + "_", 3000 + k);
            }
        });
    }
    for (auto& t : threads) t.join();
    for (int k = 0; k < 4; ++k) {
        const std::string file = (dir / ("p" + std::to_string(k) + "_1.parquet")).string();
        EXPECT_EQ(root.query_scalar("SELECT count(*) FROM read_parquet(" + quote_literal(file) +
                                    ") WHERE id LIKE 'part" + std::to_string(k) + "_%'"),
                  std::to_string(3000 + k));
    }
}

TEST(SharedDatabase, OutlivesTheSessionThatOpenedIt) {
    TempDir dir;
    auto root = std::make_unique<DuckSession>(1);
    std::unique_ptr<DuckSession> other = root->another_connection();
    root.reset();  // the database stays open while `other` is connected to it
    write_ids(*other, (dir / "after.parquet").string(), "x", 10);
    EXPECT_EQ(other->query_scalar("SELECT count(*) FROM read_parquet(" +
                                  quote_literal((dir / "after.parquet").string()) + ")"),
              "10");
}

}  // namespace
