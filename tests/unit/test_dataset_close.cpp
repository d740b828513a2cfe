// Dataset::close() (issue 18 item 11): every view, DataFrame and child frame derived from a
// closed dataset refuses reads with the same ClosedError; the views it came from stay open; a
// read racing a close on another thread either completes or gets ClosedError, nothing else.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "reader_test_util.hpp"

using namespace taco;
using namespace taco::test;

namespace {

template <typename F>
std::string closed_message(F&& read) {
    try {
        read();
    } catch (const ClosedError& e) {
        return e.what();
    } catch (const std::exception& e) {
        return std::string("wrong error: ") + e.what();
    }
    return "no error";
}

TEST(DatasetClose, EveryDerivedReadRefusesWithOneError) {
    const Dataset ds = load(kNestedZip);
    const Dataset view = ds.sql("SELECT * FROM data");
    const Dataset level1 = ds.level(1);
    const DataFrame frame = ds.data();
    const DataFrame child = frame_of(frame.read(0));
    const DataFrame view_frame = view.data();
    EXPECT_FALSE(ds.closed());
    ASSERT_GT(child.rows(), 0u);
    const std::string child_id(child.get_string(0, *child.column_index("id")));

    ds.close();
    ds.close();  // twice is harmless
    EXPECT_TRUE(ds.closed() && view.closed() && level1.closed());
    for (const std::string& message : {
             closed_message([&] { ds.data(); }),
             closed_message([&] { ds.data_raw(); }),
             closed_message([&] { ds.count(); }),
             closed_message([&] { ds.columns(); }),
             closed_message([&] { ds.sql("SELECT 1"); }),
             closed_message([&] { ds.level(0); }),
             closed_message([&] { ds.filter_datetime("2000-01-01/2030-01-01"); }),
             closed_message([&] { view.data(); }),
             closed_message([&] { level1.count(); }),
             closed_message([&] { ds.stream_raw([](const DataFrame&) {}); }),
             closed_message([&] { frame.read(0); }),
             closed_message([&] { frame.read_bytes(0); }),
             closed_message([&] { frame.byte_size(0); }),
             closed_message([&] { frame.position_of("x"); }),
             closed_message([&] { child.read_bytes(0); }),
             closed_message([&] { child.read(child_id); }),
             closed_message([&] { view_frame.read(0); }),
         }) {
        EXPECT_NE(message.find("dataset '"), std::string::npos) << message;
        EXPECT_NE(message.find("' is closed"), std::string::npos) << message;
    }
    // What is already in memory stays readable: the collection and the frame's cells.
    EXPECT_FALSE(ds.id().empty());
    EXPECT_GT(frame.rows(), 0u);
    // A ClosedError is a QueryError (Python: TacoQueryError, like its own closed checks).
    EXPECT_THROW(ds.data(), QueryError);
}

TEST(DatasetClose, ClosingAViewLeavesItsParentOpen) {
    const Dataset ds = load(kFlatZip);
    const Dataset view = ds.sql("SELECT * FROM data WHERE id <> 'sample_0'");
    const Dataset deeper = view.sql("SELECT * FROM data");
    view.close();
    EXPECT_TRUE(view.closed());
    EXPECT_TRUE(deeper.closed());
    EXPECT_FALSE(ds.closed());
    EXPECT_EQ(ds.count(), 5u);
    EXPECT_EQ(ds.data().read_bytes(0).size(), 16u);
    // Another load of the same file is independent.
    const Dataset again = load(kFlatZip);
    ds.close();
    EXPECT_EQ(again.count(), 5u);
}

TEST(DatasetClose, ConcatClosesWithAnyInput) {
    const Dataset a = load(kFlatZip), b = load(kFlatZip);
    const Dataset both = concat({a, b}, ColumnMode::Intersection);
    EXPECT_EQ(both.count(), 10u);
    b.close();
    EXPECT_THROW(both.count(), ClosedError);
    EXPECT_THROW(concat({a, b}, ColumnMode::Intersection), ClosedError);
    EXPECT_EQ(a.count(), 5u);
}

TEST(DatasetClose, ARaceWithReadsEndsInDataOrClosedErrorOnly) {
    const Dataset ds = load(kFlatZip);
    const DataFrame frame = ds.data();
    std::atomic<bool> go{false};
    std::atomic<int> ok{0}, closed{0}, other{0};
    std::vector<std::thread> readers;
    for (int t = 0; t < 4; ++t) {
        readers.emplace_back([&, t] {
            while (!go.load()) std::this_thread::yield();
            // Reads until the close is seen (bounded, so a missed close fails, not hangs).
            const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
            for (int i = 0; std::chrono::steady_clock::now() < give_up; ++i) {
                try {
                    if (frame.read_bytes(i % 5).size() > 0) ok.fetch_add(1);
                    if (t == 0 && i % 50 == 0) ds.count();
                } catch (const ClosedError&) {
                    closed.fetch_add(1);
                    return;
                } catch (...) {
                    other.fetch_add(1);
                    return;
                }
            }
        });
    }
    go.store(true);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ds.close();
    for (auto& r : readers) r.join();
    EXPECT_EQ(other.load(), 0);
    EXPECT_EQ(closed.load(), 4);
    EXPECT_GT(ok.load(), 0);
    EXPECT_THROW(frame.read_bytes(0), ClosedError);
}

}  // namespace
