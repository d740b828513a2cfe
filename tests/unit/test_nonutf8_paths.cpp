// Paths that are not UTF-8 (issue 18 item 8): the routing function that spells them for DuckDB and
// GDAL (src/paths/path_anchor.hpp), how messages show them (path_display.hpp), and a dataset
// written, loaded, queried and read under such a path through the C++ API.
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "model/utf8.hpp"
#include "paths/path_anchor.hpp"
#include "paths/path_display.hpp"
#include "reader_test_util.hpp"
#include "taco/writer.hpp"

namespace taco::test {
namespace {

const std::string kFF = "\xff";

TEST(NonUtf8Paths, EscapeLeavesUtf8AndEscapesEveryInvalidForm) {
    using paths::escape_invalid_utf8;
    EXPECT_EQ(escape_invalid_utf8("plain/é/日本/𝄞"), "plain/é/日本/𝄞");
    EXPECT_EQ(escape_invalid_utf8("/tmp/\xff.tacozip"), "/tmp/\\xff.tacozip");
    EXPECT_EQ(escape_invalid_utf8("a\x80"
                                  "b"),
              "a\\x80b");                                               // lone continuation
    EXPECT_EQ(escape_invalid_utf8("\xc0\xaf"), "\\xc0\\xaf");           // overlong '/'
    EXPECT_EQ(escape_invalid_utf8("\xe0\x80\xaf"), "\\xe0\\x80\\xaf");  // overlong, 3 bytes
    EXPECT_EQ(escape_invalid_utf8("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // a surrogate
    EXPECT_EQ(escape_invalid_utf8("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // > U+10FFFF
    EXPECT_EQ(escape_invalid_utf8("end\xe6\x97"), "end\\xe6\\x97");              // cut short
    EXPECT_EQ(escape_invalid_utf8(std::string("n\0ul", 4)), std::string("n\0ul", 4));
}

TEST(NonUtf8Paths, Utf8PathsPassUnchanged) {
    const paths::SqlPath p = paths::anchor_path("/tmp/some where/é.tacozip");
    EXPECT_EQ(p.text, "/tmp/some where/é.tacozip");
    EXPECT_EQ(p.anchor, nullptr);
}

TEST(NonUtf8Paths, ExistingPathIsAnchoredAndResolvesToTheSameInode) {
    TempDir dir;
    const fs::path bad = dir / ("d" + kFF);
    fs::create_directories(bad / "METADATA");
    spit(bad / "METADATA" / "x.txt", "hello");
    int fd = -1;
    {
        const paths::SqlPath p = paths::anchor_path(bad);
        ASSERT_NE(p.anchor, nullptr);
        fd = p.anchor->fd();
        EXPECT_EQ(p.text, "/proc/self/fd/" + std::to_string(fd));
        EXPECT_EQ(fs::canonical(p.text), fs::canonical(bad));
        EXPECT_EQ(slurp(fs::path(p.text) / "METADATA" / "x.txt"), "hello");
    }
    EXPECT_EQ(::fcntl(fd, F_GETFD), -1);  // the descriptor goes with the last holder
}

TEST(NonUtf8Paths, MissingOutputUnderAnAnchoredDirectoryKeepsItsUtf8Name) {
    TempDir dir;
    const fs::path bad = dir / ("d" + kFF);
    fs::create_directories(bad);
    const paths::SqlPath p = paths::anchor_path(bad / "new" / "level0.parquet");
    ASSERT_NE(p.anchor, nullptr);
    EXPECT_EQ(p.text, p.anchor->proc_path() + "/new/level0.parquet");
}

TEST(NonUtf8Paths, Utf8FileNameInSuchADirectoryKeepsItsNameAndExtension) {
    TempDir dir;
    const fs::path bad = dir / ("d" + kFF);
    fs::create_directories(bad);
    spit(bad / "table.csv", "id\na\n");
    const paths::SqlPath p = paths::anchor_path(bad / "table.csv");
    ASSERT_NE(p.anchor, nullptr);
    EXPECT_EQ(p.text, p.anchor->proc_path() + "/table.csv");
    EXPECT_EQ(slurp(p.text), "id\na\n");
}

TEST(NonUtf8Paths, MissingFileWhoseOwnNameIsNotUtf8IsRefusedNamingIt) {
    TempDir dir;
    const std::string msg =
        error_of<IoError>([&] { paths::anchor_path(dir / ("out" + kFF + ".parquet")); });
    EXPECT_TRUE(contains(msg, "out\\xff.parquet")) << msg;
    EXPECT_TRUE(contains(msg, "not UTF-8")) << msg;
}

TEST(NonUtf8Paths, DisplayNamesTheAnchoredPathEvenAfterItsDescriptorClosed) {
    TempDir dir;
    const fs::path bad = dir / ("d" + kFF);
    fs::create_directories(bad);
    std::string message;
    std::string shown_path = paths::escape_invalid_utf8(bad.string());
    {
        const paths::SqlPath p = paths::anchor_path(bad);
        message = "cannot read '" + p.text + "/METADATA/level0.parquet'";
        EXPECT_EQ(paths::display_text(message),
                  "cannot read '" + shown_path + "/METADATA/level0.parquet'");
    }
    // Unwinding out of a failed load closes the descriptor before the message is shown.
    EXPECT_EQ(paths::display_text(message),
              "cannot read '" + shown_path + "/METADATA/level0.parquet'");
    EXPECT_TRUE(model::is_valid_utf8(paths::display_text(message)));
}

TEST(NonUtf8Paths, DisplayLeavesADescriptorNumberTakenByAnotherFile) {
    TempDir dir;
    const fs::path bad = dir / ("d" + kFF);
    fs::create_directories(bad);
    int number = -1;
    { number = paths::anchor_path(bad).anchor->fd(); }
    const int mem = ::memfd_create("taco-test", MFD_CLOEXEC);  // lowest free number: the same
    if (mem != number) GTEST_SKIP() << "another thread took descriptor " << number;
    const std::string text = "/proc/self/fd/" + std::to_string(mem) + " is a memfd";
    EXPECT_EQ(paths::display_text(text), text);
    ::close(mem);
}

TEST(NonUtf8Paths, DatasetsWrittenLoadedQueriedAndReadUnderSuchPaths) {
    TempDir dir;
    const fs::path parent =
        dir / ("p" + kFF + "\x80" + "\xc0\xaf");  // 0xff, continuation, overlong
    fs::create_directories(parent);
    for (const std::string& name : {"z" + kFF + ".tacozip", std::string("folder") + kFF}) {
        const fs::path out = parent / name;
        create(flat_taco(3), out);
        Dataset ds = load(out.string());
        EXPECT_EQ(ds.path(), out);
        DataFrame df = ds.sql("SELECT * FROM data WHERE id = 's1'").data();
        ASSERT_EQ(df.rows(), 1u);
        EXPECT_EQ(df.read_bytes(0), sample_bytes("s1"));
        const DataFrame all = ds.data();
        const std::string vsi(all.get_string(0, *all.column_index("internal:gdal_vsi")));
        EXPECT_TRUE(model::is_valid_utf8(vsi)) << vsi;
        EXPECT_TRUE(contains(vsi, "/proc/self/fd/")) << vsi;
        EXPECT_TRUE(validate(out.string()).valid()) << name;
    }
}

}  // namespace
}  // namespace taco::test
