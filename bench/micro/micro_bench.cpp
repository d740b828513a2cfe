// Micro-benchmarks of the hot pieces (issue 5): TACO_HEADER parsing, CRC-32, GDAL VSI path
// building, and id lookup in a DataFrame. `make bench` runs them and reports the JSON output.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "format/taco_header.hpp"
#include "io/crc32.hpp"
#include "query/vsi_path.hpp"
#include "taco/taco.hpp"

namespace {

void BM_TacoHeaderParse(benchmark::State& state) {
    taco::format::TacoHeader h;
    for (uint64_t i = 0; i < 4; ++i) h.slots.emplace_back(1000000 + i * 4096, 4096);
    std::string payload = taco::format::encode_taco_header_payload(h);
    // A real first 157 bytes: local header of a STORE entry named TACO_HEADER, then the payload.
    std::string bytes = std::string("PK\x03\x04\x0a\x00\x00\x00\x00\x00", 10) +
                        std::string(4, '\0') + std::string(4, '\0') +
                        std::string("\x74\x00\x00\x00\x74\x00\x00\x00\x0b\x00\x00\x00", 12) +
                        "TACO_HEADER" + payload;
    for (auto _ : state) {
        auto parsed = taco::format::parse_taco_header(
            reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), "bench");
        benchmark::DoNotOptimize(parsed);
    }
}
BENCHMARK(BM_TacoHeaderParse);

void BM_Crc32(benchmark::State& state) {
    std::vector<uint8_t> data(static_cast<size_t>(state.range(0)));
    std::mt19937 rng(42);
    for (auto& b : data) b = static_cast<uint8_t>(rng());
    for (auto _ : state) benchmark::DoNotOptimize(taco::io::crc32(0, data.data(), data.size()));
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * state.range(0));
}
BENCHMARK(BM_Crc32)->Arg(4096)->Arg(8 << 20);

void BM_VsiPathBuild(benchmark::State& state) {
    const std::string root = "/data/datasets/sentinel2/europe_part0001.tacozip";
    std::string out;
    int64_t offset = 123456789;
    for (auto _ : state) {
        out.clear();
        taco::query::write_vsi_subfile(out, offset++, 4096, root);
        benchmark::DoNotOptimize(out.data());
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_VsiPathBuild);

// One 100,000-row level, loaded once; each iteration looks up a random id.
class IdLookup : public benchmark::Fixture {
  public:
    void SetUp(const benchmark::State&) override {
        if (!frame_.rows()) {
            namespace fs = std::filesystem;
            fs::path dir = fs::temp_directory_path() / "tacocore-micro-bench";
            fs::create_directories(dir);
            fs::path zip = dir / "ids.tacozip";
            std::vector<taco::Sample> samples;
            for (int i = 0; i < kRows; ++i)
                samples.push_back(taco::Sample::bytes("sample_" + std::to_string(i), ""));
            taco::CollectionInfo info;
            info.id = "micro";
            taco::CreateOptions opts;
            opts.overwrite = true;
            taco::create(taco::Taco(taco::Tortilla(std::move(samples)), info), zip, opts);
            frame_ = taco::load(zip).data();
            frame_.position_of("sample_0");  // builds the id index outside the timing
        }
    }
    static constexpr int kRows = 100000;
    static taco::DataFrame frame_;
};
taco::DataFrame IdLookup::frame_;

BENCHMARK_F(IdLookup, ById)(benchmark::State& state) {
    std::mt19937 rng(7);
    std::vector<std::string> ids;
    for (int i = 0; i < 1024; ++i) ids.push_back("sample_" + std::to_string(rng() % kRows));
    size_t k = 0;
    for (auto _ : state) benchmark::DoNotOptimize(frame_.position_of(ids[k++ & 1023]));
    state.SetItemsProcessed(state.iterations());
}

BENCHMARK_F(IdLookup, ReadByPosition)(benchmark::State& state) {
    int64_t i = 0;
    for (auto _ : state) benchmark::DoNotOptimize(frame_.read(i++ % kRows));
    state.SetItemsProcessed(state.iterations());
}

}  // namespace

BENCHMARK_MAIN();
