// USER-GUIDE.md §3's C++ example, compiled and run by `make test` so that it stays true; the
// lines between the markers are the guide's (tests/meta/test_docs_examples.py compares them).
//   example_user_guide OUTPUT_DIR
#include <taco/taco.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <variant>

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: example_user_guide OUTPUT_DIR\n");
        return 2;
    }
    const std::filesystem::path dir = argv[1];
    std::filesystem::create_directories(dir / "s1");
    std::filesystem::current_path(dir);
    std::filesystem::remove("scenes.tacozip");
    std::ofstream("s1/image.tif") << "pretend this is a GeoTIFF";
    const std::string mask_bytes = "and this its mask";

    // --- USER-GUIDE §3 begin ---
    // Create
    taco::Sample image = taco::Sample::file("image.tif", "s1/image.tif");
    taco::Sample mask = taco::Sample::bytes("mask.tif", mask_bytes);
    taco::Sample scene = taco::Sample::folder("scene_1", taco::Tortilla({image, mask}));
    scene.set("cloud_cover", 12.5).set("acquired", taco::Value::timestamp(1685615400000000));
    taco::CollectionInfo info;
    info.id = "my-scenes";
    info.licenses = {"CC-BY-4.0"};
    taco::Taco dataset(taco::Tortilla({scene /*, more scenes with the same children */}), info);
    taco::create(dataset, "scenes.tacozip");

    // Read
    taco::Dataset ds = taco::load("scenes.tacozip");
    taco::DataFrame clear = ds.sql("SELECT * FROM data WHERE cloud_cover < 20").data();
    taco::DataFrame children = std::get<taco::DataFrame>(clear.read("scene_1"));
    std::string vsi = std::get<std::string>(children.read("image.tif"));   // open with GDAL
    std::string bytes = children.read_bytes("mask.tif");                  // straight from the ZIP
    taco::ValidationReport report = taco::validate("scenes.tacozip");
    // --- USER-GUIDE §3 end ---

    std::printf("%zu clear scene(s); image at %s; mask '%s'; %s\n", clear.rows(), vsi.c_str(),
                bytes.c_str(), report.valid() ? "valid" : "INVALID");
    return clear.rows() == 1 && bytes == mask_bytes && report.valid() ? 0 : 1;
}
