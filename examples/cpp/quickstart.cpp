// The README's C++ example, compiled and run by `make test` so that it stays true.
//   example_quickstart OUTPUT_DIR
#include <taco/taco.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <variant>

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: example_quickstart OUTPUT_DIR\n");
        return 2;
    }
    std::filesystem::path dir = argv[1];
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "scene_1.tif") << "pretend this is a GeoTIFF";
    std::string bytes = "and this one too";

    // --- the README example ---
    taco::Sample a = taco::Sample::file("scene_1.tif", dir / "scene_1.tif");
    a.set("cloud_cover", 12.5).set("split", "train");
    taco::Sample b = taco::Sample::bytes("scene_2.tif", bytes);
    b.set("cloud_cover", 3.0).set("split", "test");
    taco::CollectionInfo info;
    info.id = "my-dataset";
    info.licenses = {"CC-BY-4.0"};
    taco::Taco dataset(taco::Tortilla({a, b}), info);  // validates ids, schema, PIT, collection
    taco::CreateOptions options;
    options.overwrite = true;
    taco::create(dataset, dir / "my-dataset.tacozip", options);

    // --- and reading it back ---
    taco::Dataset ds = taco::load(dir / "my-dataset.tacozip");
    taco::DataFrame clear = ds.sql("SELECT * FROM data WHERE cloud_cover < 10").data();
    std::string vsi = std::get<std::string>(clear.read("scene_2.tif"));
    std::string read = clear.read_bytes("scene_2.tif");
    std::printf("%zu clear sample(s); %s holds '%s'\n", clear.rows(), vsi.c_str(), read.c_str());
    return read == bytes ? 0 : 1;
}
