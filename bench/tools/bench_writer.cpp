// Writer benchmark through the C++ API: N in-memory samples with 5 metadata columns, written as a
// ZIP. Prints one JSON line: {"samples", "seconds_build", "seconds_create", "bytes",
// "peak_rss_bytes"}.
//   bench_writer OUTPUT.tacozip [N] [SIZE_BYTES] [ZSTD_LEVEL]
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "taco/taco.hpp"

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_writer OUTPUT.tacozip [N=1000000] [SIZE_BYTES=0]\n");
        return 2;
    }
    size_t n = argc > 2 ? std::stoull(argv[2]) : 1000000;
    size_t size = argc > 3 ? std::stoull(argv[3]) : 0;
    auto t0 = std::chrono::steady_clock::now();
    std::vector<taco::Sample> samples;
    samples.reserve(n);
    std::string payload(size, 'x');
    for (size_t i = 0; i < n; ++i) {
        taco::Sample s = taco::Sample::bytes("s" + std::to_string(i), payload);
        s.set("cloud_cover", static_cast<double>(i % 100) / 2.0);
        s.set("count", static_cast<long long>(i));
        s.set("split", i % 10 == 0 ? "test" : "train");
        s.set("valid", i % 3 == 0);
        s.set("stac:time_start",
              taco::Value::timestamp(1672531200000000LL + static_cast<int64_t>(i) * 1000000));
        samples.push_back(std::move(s));
    }
    taco::CollectionInfo info;
    info.id = "bench";
    info.dataset_version = "1";
    info.description = "writer benchmark";
    taco::Taco dataset(taco::Tortilla(std::move(samples)), info);
    auto t1 = std::chrono::steady_clock::now();
    {
        struct rusage r0;
        getrusage(RUSAGE_SELF, &r0);
        std::fprintf(stderr, "rss after model: %ld MB\n", r0.ru_maxrss / 1024);
    }
    taco::CreateOptions opts;
    opts.overwrite = true;
    if (argc > 4) opts.compression_level = std::stoi(argv[4]);
    taco::CreateResult r = taco::create(dataset, argv[1], opts);
    auto t2 = std::chrono::steady_clock::now();
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    std::printf(
        "{\"samples\": %zu, \"seconds_build\": %.3f, \"seconds_create\": %.3f, \"bytes\": %llu, "
        "\"peak_rss_bytes\": %ld}\n",
        n, std::chrono::duration<double>(t1 - t0).count(),
        std::chrono::duration<double>(t2 - t1).count(), static_cast<unsigned long long>(r.bytes),
        ru.ru_maxrss * 1024L);
    return 0;
}
