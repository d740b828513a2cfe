// bench_make_spacetime: writes the datasets of bench/bench_spacetime.py through the C++ API,
// where its Python generators need over 20 minutes at full size.
//
//   bench_make_spacetime flat ROWS OUTPUT.tacozip [SEED]
//   bench_make_spacetime deep ROOTS OUTPUT.tacozip [SEED]
//
// flat: ROWS one-byte FILEs s0000000.. with `istac:geometry` (a 0.1-degree box, as below) and
// `istac:time_start`, a uniform random microsecond in 2020-01-01 + 5 x 365 days.
// deep: ROOTS root FOLDERs r000000.. each holding 4 FOLDERs m0..m3 each holding 4 one-byte FILEs
// l0..l3; every leaf carries `istac:geometry`, the WKB polygon of a 0.1-degree box at a uniform
// random place (lon -180..179.9, lat -80..79.9), as the Python generator does (a different
// random stream: the benchmark compares tools on the same file, not files between runs).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "taco/taco.hpp"

namespace {

void put_u32(std::string& out, uint32_t v) {
    out.append(reinterpret_cast<const char*>(&v), 4);
}
void put_f64(std::string& out, double v) {
    out.append(reinterpret_cast<const char*>(&v), 8);
}

// Little-endian WKB Polygon of the box [x, x + d] x [y, y + d], one closed ring.
std::string box_wkb(double x, double y, double d) {
    std::string w;
    w.push_back(1);  // little endian (this tool runs on x86-64)
    put_u32(w, 3);   // Polygon
    put_u32(w, 1);   // one ring
    put_u32(w, 5);   // five points
    const double pts[5][2] = {{x + d, y}, {x + d, y + d}, {x, y + d}, {x, y}, {x + d, y}};
    for (const auto& p : pts) {
        put_f64(w, p[0]);
        put_f64(w, p[1]);
    }
    return w;
}

}  // namespace

taco::CollectionInfo bench_info() {
    taco::CollectionInfo info;
    info.id = "bench";
    info.dataset_version = "1";
    info.description = "bench";
    info.licenses = {"CC-BY-4.0"};
    taco::Contact provider;
    provider.name = "b";
    info.providers = {provider};
    info.tasks = {"other"};
    return info;
}

int main(int argc, char** argv) {
    if (argc < 4 || (std::string(argv[1]) != "flat" && std::string(argv[1]) != "deep")) {
        std::cerr << "usage: bench_make_spacetime flat|deep N OUTPUT.tacozip [SEED]\n";
        return 2;
    }
    const bool flat = std::string(argv[1]) == "flat";
    const size_t n = std::stoul(argv[2]);
    const std::string out = argv[3];
    std::mt19937_64 rng(argc > 4 ? std::stoull(argv[4]) : (flat ? 14 : 15));
    std::uniform_real_distribution<double> lon(-180, 179.9), lat(-80, 79.9);
    try {
        std::vector<taco::Sample> top;
        top.reserve(n);
        char id[32];
        if (flat) {
            const int64_t t0 = 1577836800LL * 1000000;  // 2020-01-01T00:00:00Z
            std::uniform_int_distribution<int64_t> us(0, 5LL * 365 * 86400 * 1000000 - 1);
            for (size_t i = 0; i < n; ++i) {
                std::snprintf(id, sizeof id, "s%07zu", i);
                taco::Sample s = taco::Sample::bytes(id, "x");
                const double x = lon(rng), y = lat(rng);
                s.set("istac:geometry", taco::Value::binary(box_wkb(x, y, 0.1)));
                s.set("istac:time_start", taco::Value::timestamp(t0 + us(rng)));
                top.push_back(std::move(s));
            }
        }
        for (size_t r = 0; !flat && r < n; ++r) {
            std::vector<taco::Sample> mids;
            for (int m = 0; m < 4; ++m) {
                std::vector<taco::Sample> leaves;
                for (int k = 0; k < 4; ++k) {
                    taco::Sample leaf = taco::Sample::bytes("l" + std::to_string(k), "x");
                    leaf.set("istac:geometry",
                             taco::Value::binary(box_wkb(lon(rng), lat(rng), 0.1)));
                    leaves.push_back(std::move(leaf));
                }
                mids.push_back(taco::Sample::folder("m" + std::to_string(m),
                                                    taco::Tortilla(std::move(leaves))));
            }
            std::snprintf(id, sizeof id, "r%06zu", r);
            top.push_back(taco::Sample::folder(id, taco::Tortilla(std::move(mids))));
        }
        taco::Taco dataset(taco::Tortilla(std::move(top)), bench_info());
        const taco::CreateResult res = taco::create(dataset, out);
        std::cout << res.path.string() << " " << res.bytes << " bytes, " << res.files << " files\n";
    } catch (const std::exception& e) {
        std::cerr << "bench_make_spacetime: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
