// libFuzzer target: load() of a whole small dataset from bytes (a TACO ZIP in a memfd), then the
// first reads a user makes: row count, data(), the bytes of the first sample. Linked against the
// library compiled by clang with coverage instrumentation and ASan + UBSan (scripts/fuzz.sh,
// build-fuzz/lib), so libFuzzer is steered by what the container, COLLECTION.json and metadata
// code does with each input; DuckDB and GDAL are the prebuilt libraries, not instrumented.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "taco/taco.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const int fd = memfd_create("fuzz-load", 0);
    if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != static_cast<ssize_t>(size)) return 0;
    static const std::string path = "/proc/self/fd/" + std::to_string(fd);
    try {
        const taco::Dataset ds = taco::load(path);
        if (ds.count() > 0) {
            const taco::DataFrame df = ds.data();
            if (df.rows() > 0 && df.read_bytes(0).size() > size) __builtin_trap();
        }
    } catch (const taco::Error&) {
    }
    return 0;
}
