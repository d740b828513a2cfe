// raster::decode refuses a FIFO or device behind a GDAL path instead of blocking in GDAL's open
// (hardening: "read_array of a sample whose bytes come from a FIFO").
#include <sys/stat.h>

#include "raster/decode.hpp"
#include "raster/local_file_check.hpp"
#include "reader_test_util.hpp"

namespace taco::test {
namespace {

using raster::refuse_non_regular_local_file;

TEST(RasterLocalFile, FifoBehindEveryWrapperIsRefusedWithoutBlocking) {
    TempDir dir;
    const std::string fifo = (dir / "sample.tif").string();
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    ASSERT_EQ(::mkfifo((dir / "archive.zip").c_str(), 0600), 0);
    const std::string zip = (dir / "archive.zip").string();
    for (const std::string& path :
         {fifo, "/vsisubfile/0_100," + fifo, "/vsisubfile/5_10,/vsisubfile/0_100," + fifo,
          "/vsizip/" + zip + "/member.tif", "/vsizip/{" + zip + "}/member.tif",
          "/vsigzip//vsisubfile/0_10," + fifo}) {
        SCOPED_TRACE(path);
        const std::string msg = error_of<IoError>([&] { refuse_non_regular_local_file(path); });
        EXPECT_TRUE(contains(msg, "it is a FIFO, expected a regular file")) << msg;
        // decode() checks before GDAL opens anything: it returns (with the error) at once.
        const std::string decoded = error_of<IoError>([&] { raster::decode(path); });
        EXPECT_TRUE(contains(decoded, "FIFO")) << decoded;
    }
    const std::string dev = error_of<IoError>([] { raster::decode("/dev/zero"); });
    EXPECT_TRUE(contains(dev, "'/dev/zero': it is a character device")) << dev;
}

TEST(RasterLocalFile, RegularFilesDirectoriesAndRemotePathsPass) {
    TempDir dir;
    spit(dir / "a.bin", "not a raster");
    EXPECT_NO_THROW(refuse_non_regular_local_file((dir / "a.bin").string()));
    EXPECT_NO_THROW(refuse_non_regular_local_file("/vsisubfile/0_4," + (dir / "a.bin").string()));
    EXPECT_NO_THROW(refuse_non_regular_local_file(dir.path().string()));
    EXPECT_NO_THROW(refuse_non_regular_local_file((dir / "missing.tif").string()));
    EXPECT_NO_THROW(refuse_non_regular_local_file("/vsicurl/http://127.0.0.1:1/x.tif"));
    EXPECT_NO_THROW(refuse_non_regular_local_file("/vsimem/x.tif"));
    // A regular file that is not a raster still reaches GDAL, which names it.
    const std::string msg = error_of<IoError>([&] { raster::decode((dir / "a.bin").string()); });
    EXPECT_TRUE(contains(msg, "a.bin")) << msg;
}

}  // namespace
}  // namespace taco::test
