// libFuzzer target: the ZIP central directory reader (EOCD, ZIP64 locator and record, central
// records, local headers) on an arbitrary file. Errors must be taco::FormatError or IoError.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "format/zip_reader.hpp"
#include "io/file.hpp"
#include "taco/errors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const int fd = memfd_create("fuzz-zip", 0);
    if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != static_cast<ssize_t>(size)) return 0;
    static const std::string path = "/proc/self/fd/" + std::to_string(fd);
    try {
        const taco::io::File file = taco::io::File::open_read(path);
        taco::format::ZipReadOptions options;
        options.resolve_data_offsets = true;
        const taco::format::ZipDirectory dir =
            taco::format::read_zip_directory(file, path, options);
        for (size_t i = 0; i < dir.size(); ++i) {
            // Every entry the reader accepts lies inside the file.
            if (dir[i].data_offset > size || size - dir[i].data_offset < dir[i].compressed_size)
                __builtin_trap();
        }
    } catch (const taco::Error&) {
    }
    return 0;
}
