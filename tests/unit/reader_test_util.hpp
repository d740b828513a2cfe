// Shared helpers of the reader and validator tests: temporary directories, byte-level file
// surgery, and small datasets written with taco::create.
#pragma once

#include <gtest/gtest.h>

#include <stdlib.h>
#include "test_util.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "metadata/duckdb_session.hpp"
#include "taco/taco.hpp"

namespace taco::test {

namespace fs = std::filesystem;

inline const std::string kFixtures = TACO_FIXTURES_DIR;
inline const std::string kFlatZip = kFixtures + "/tacoreader/zip/flat/flat.tacozip";
inline const std::string kNestedZip = kFixtures + "/tacoreader/zip/nested/nested.tacozip";
inline const std::string kFlatFolder = kFixtures + "/tacoreader/folder/flat";
inline const std::string kNestedFolder = kFixtures + "/tacoreader/folder/nested";
inline const std::string kSimpleZip = kFixtures + "/tacotoolbox/zip/simple/simple.tacozip";
inline const std::string kSimpleFolder = kFixtures + "/tacotoolbox/folder/simple";
inline const std::string kNestedAZip = kFixtures + "/tacotoolbox/zip/nested_a/nested_a.tacozip";
inline const std::string kNestedBZip = kFixtures + "/tacotoolbox/zip/nested_b/nested_b.tacozip";

inline std::vector<std::string> all_fixtures() {
    return {kFlatZip,   kNestedZip,    kFlatFolder, kNestedFolder,
            kSimpleZip, kSimpleFolder, kNestedAZip, kNestedBZip};
}

inline std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + p.string());
    return std::string(std::istreambuf_iterator<char>(in), {});
}

inline void spit(const fs::path& p, const std::string& data) {
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
}

/// Copies a fixture (file or directory) into `dir` and returns the copy's path.
inline fs::path copy_fixture(const std::string& fixture, const TempDir& dir) {
    const fs::path target = dir / fs::path(fixture).filename().string();
    fs::copy(fixture, target, fs::copy_options::recursive);
    return target;
}

inline void put_le(std::string& s, size_t at, uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) s[at + i] = static_cast<char>(v >> (8 * i));
}

inline CollectionInfo test_collection(const std::string& id = "reader_test") {
    CollectionInfo info;
    info.id = id;
    info.dataset_version = "1.0.0";
    info.description = "dataset written by the reader tests";
    info.licenses = {"CC-BY-4.0"};
    Contact c;
    c.name = "tacocore";
    info.providers = {c};
    info.tasks = {"classification"};
    return info;
}

/// The bytes of FILE sample `path` (ids joined by '/') in the datasets made below.
inline std::string sample_bytes(const std::string& path) {
    return "bytes of " + path;
}

/// A flat dataset of `n` FILE samples `s0..s{n-1}` with columns cloud (double), label (string),
/// count (int64).
inline Taco flat_taco(size_t n) {
    std::vector<Sample> samples;
    for (size_t i = 0; i < n; ++i) {
        const std::string id = "s" + std::to_string(i);
        Sample s = Sample::bytes(id, sample_bytes(id));
        s.set("cloud", Value(0.5 * static_cast<double>(i)));
        s.set("label", Value("label_" + std::to_string(i % 3)));
        s.set("count", Value(static_cast<long long>(i * 10)));
        samples.push_back(std::move(s));
    }
    return Taco(Tortilla(std::move(samples)), test_collection());
}

/// tile_00..tile_{tiles-1} / sensor_A, sensor_B / band_R, band_G, band_B (FILEs), every tortilla
/// padded to a multiple of `pad` (0 = no padding).
inline Taco deep_taco(size_t tiles, size_t pad) {
    TortillaOptions opts;
    if (pad) opts.pad_to = pad;
    std::vector<Sample> roots;
    for (size_t t = 0; t < tiles; ++t) {
        const std::string tile = "tile_0" + std::to_string(t);
        std::vector<Sample> sensors;
        for (const char* sensor : {"sensor_A", "sensor_B"}) {
            std::vector<Sample> bands;
            for (const char* band : {"band_R", "band_G", "band_B"}) {
                const std::string path = tile + "/" + sensor + "/" + band;
                Sample b = Sample::bytes(band, sample_bytes(path));
                b.set("wavelength", Value(static_cast<long long>(band[5])));
                bands.push_back(std::move(b));
            }
            Sample s = Sample::folder(sensor, Tortilla(std::move(bands), opts));
            s.set("resolution", Value(sensor[7] == 'A' ? 10.0 : 20.0));
            sensors.push_back(std::move(s));
        }
        Sample tile_sample = Sample::folder(tile, Tortilla(std::move(sensors), opts));
        tile_sample.set("cloud", Value(static_cast<double>(t)));
        roots.push_back(std::move(tile_sample));
    }
    return Taco(Tortilla(std::move(roots), opts), test_collection("deep_test"));
}

/// The GDAL path of a FILE read (fails the test with bad_variant_access for a FOLDER).
inline const std::string& path_of(const ReadResult& r) {
    return std::get<std::string>(r);
}
/// The children of a FOLDER read.
inline const DataFrame& frame_of(const ReadResult& r) {
    return std::get<DataFrame>(r);
}

/// Runs a statement through a private DuckDB connection (e.g. to rewrite a Parquet file).
inline void duck(const std::string& sql) {
    metadata::DuckSession db;
    db.exec(sql);
}

}  // namespace taco::test
