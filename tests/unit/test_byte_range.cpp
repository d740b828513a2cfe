// DataFrame::byte_range: where a FILE sample's bytes lie, checked as read_bytes checks them, for
// callers that read into buffers of their own (the Python bindings' read_bytes/read_bytes_many).
#include <gtest/gtest.h>

#include "io/byte_source.hpp"
#include "query/navigation.hpp"
#include "reader_test_util.hpp"

using namespace taco;
using namespace taco::test;

namespace {

std::string bytes_at(const query::FileRange& r) {
    return r.source->read_string(r.offset, static_cast<size_t>(r.size), "test");
}

TEST(ByteRange, ZipSamplesShareTheArchiveAndGiveTheSameBytesAsReadBytes) {
    const DataFrame df = load(kFlatZip).data();
    const query::FileRange first = df.byte_range(0);
    for (int64_t i = 0; i < 5; ++i) {
        const query::FileRange r = df.byte_range(i);
        EXPECT_EQ(r.size, df.byte_size(i));
        EXPECT_EQ(bytes_at(r), df.read_bytes(i));
        // One open archive for every sample: what lets read_bytes_many keep the ranges.
        EXPECT_EQ(r.source.get(), first.source.get());
    }
    EXPECT_GT(first.source.use_count(), 1);
}

TEST(ByteRange, FolderSamplesAreFilesOpenedForTheRangeAlone) {
    const DataFrame europe = frame_of(load(kNestedFolder).data().read("europe"));
    const query::FileRange r = europe.byte_range(2);
    EXPECT_EQ(r.offset, 0u);
    EXPECT_EQ(bytes_at(r), slurp(kNestedFolder + "/DATA/europe/item_2"));
    EXPECT_EQ(r.source.use_count(), 1);  // nobody else holds it: closed with the range
}

TEST(ByteRange, RefusesWhatReadBytesRefuses) {
    const DataFrame df = load(kFlatZip).data();
    EXPECT_TRUE(
        contains(error_of<NavigationError>([&] { df.byte_range(5); }), "out of range [0, 4]"));
    const DataFrame top = load(kNestedZip).data();
    EXPECT_TRUE(contains(error_of<NavigationError>([&] { top.byte_range(0); }), "is a FOLDER"));
    Dataset ds = load(kFlatZip);
    const DataFrame closed = ds.data();
    ds.close();
    EXPECT_TRUE(contains(error_of<ClosedError>([&] { closed.byte_range(0); }), "is closed"));
}

TEST(ByteRange, MessagesNeverShowAnEndBelowTheStart) {
    EXPECT_EQ(io::byte_range_text(200, 16), "bytes [200, 216)");
    // A damaged offset near 2^64: the end would wrap around to a small number.
    EXPECT_EQ(io::byte_range_text(UINT64_MAX - 99, 200),
              "bytes [18446744073709551516, 18446744073709551516 + 200)");
    EXPECT_EQ(io::byte_range_text(UINT64_MAX, 0),
              "bytes [18446744073709551615, 18446744073709551615)");
}

}  // namespace
