// taco_make_dataset: builds the datasets of the writer interop matrix through the public C++ API
// (taco::Sample, Tortilla, Taco, taco::create) and prints a JSON description of what it wrote, so
// that pytest can check the result against tacoreader, pyarrow and zipfile.
//
//   taco_make_dataset CASE OUTPUT [SOURCE]
//
// OUTPUT ending in .tacozip / .zip makes a ZIP, anything else a FOLDER. SOURCE is a directory the
// tool may write source files into (zero-bytes), or the big sparse source file (big-4g).
//
// The description (stdout, one JSON document):
//   {"case", "result": {path, format, bytes, files, level_rows},
//    "collection": {id, extent | null (null: none was given)},
//    "samples": [node, ...]}          root samples in order, padding included
//   node = {"id", "type": "FILE"|"FOLDER", "padding": bool,
//           "fields": [[name, arrow type, value], ...]   in the sample's own order,
//           FILE:   "size" and either "data_b64" (in-memory bytes) or "source" (file on disk),
//           FOLDER: "children": [node, ...]}
//   values: string/int/float/bool as JSON, timestamp = int microseconds since the epoch,
//           binary = lowercase hex, list = JSON array, null = null.
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "taco/taco.hpp"

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;
using taco::DataType;
using taco::Sample;
using taco::Tortilla;
using taco::TortillaOptions;
using taco::Value;

namespace {

// ---- description of what was built -------------------------------------------------------------

std::string to_hex(const std::string& bytes) {
    static const char* digits = "0123456789abcdef";
    std::string out;
    out.reserve(bytes.size() * 2);
    for (unsigned char c : bytes) {
        out.push_back(digits[c >> 4]);
        out.push_back(digits[c & 15]);
    }
    return out;
}

std::string to_base64(const std::string& in) {
    static const char* table = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    size_t i = 0;
    for (; i + 2 < in.size(); i += 3) {
        uint32_t v = (uint8_t(in[i]) << 16) | (uint8_t(in[i + 1]) << 8) | uint8_t(in[i + 2]);
        for (int s = 18; s >= 0; s -= 6) out.push_back(table[(v >> s) & 63]);
    }
    if (i + 1 == in.size()) {
        uint32_t v = uint8_t(in[i]) << 16;
        out += {table[v >> 18], table[(v >> 12) & 63], '=', '='};
    } else if (i + 2 == in.size()) {
        uint32_t v = (uint8_t(in[i]) << 16) | (uint8_t(in[i + 1]) << 8);
        out += {table[v >> 18], table[(v >> 12) & 63], table[(v >> 6) & 63], '='};
    }
    return out;
}

json value_json(const Value& v) {
    if (v.is_null()) return nullptr;
    switch (v.type().id()) {
        case taco::TypeId::Bool:
            return v.as_bool();
        case taco::TypeId::Int32:
        case taco::TypeId::Int64:
        case taco::TypeId::Timestamp:
            return v.as_int();
        case taco::TypeId::Float32:
        case taco::TypeId::Float64:
            return v.as_double();
        case taco::TypeId::String:
            return v.as_string();
        case taco::TypeId::Binary:
            return to_hex(v.as_string());
        case taco::TypeId::List:
        case taco::TypeId::FixedList:
        case taco::TypeId::Struct:
        case taco::TypeId::Map: {
            json arr = json::array();
            for (const auto& item : v.as_list()) arr.push_back(value_json(item));
            return arr;
        }
        case taco::TypeId::Date:
        case taco::TypeId::TimestampTz:
            return v.as_int();
        case taco::TypeId::Decimal:
            return v.as_string();
        case taco::TypeId::Null:
            return nullptr;
    }
    return nullptr;
}

json describe(const Sample& s) {
    json node;
    node["id"] = s.id();
    node["type"] = taco::to_string(s.type());
    node["padding"] = s.is_padding();
    json fields = json::array();
    for (const auto& f : s.fields())
        fields.push_back(json::array({f.name, f.value.type().arrow_name(), value_json(f.value)}));
    node["fields"] = std::move(fields);
    if (s.is_folder()) {
        json children = json::array();
        for (const auto& c : s.children().samples()) children.push_back(describe(c));
        node["children"] = std::move(children);
    } else {
        node["size"] = s.size();
        if (!s.path().empty()) {
            node["source"] = s.path().string();
        } else {
            node["data_b64"] = to_base64(s.memory() ? *s.memory() : std::string());
        }
    }
    return node;
}

// ---- building blocks
// ------------------------------------------------------------------------------

Sample file_bytes(const std::string& id, const std::string& data,
                  std::vector<taco::Field> fields = {}) {
    Sample s = Sample::bytes(id, data);
    s.extend_with(fields);
    return s;
}

Sample folder(const std::string& id, std::vector<Sample> children,
              std::vector<taco::Field> fields = {}, TortillaOptions options = {}) {
    Sample s = Sample::folder(id, Tortilla(std::move(children), options));
    s.extend_with(fields);
    return s;
}

std::string wkb_point(double x, double y) {
    std::string out(21, '\0');
    out[0] = 1;  // little endian
    uint32_t type = 1;
    std::memcpy(&out[1], &type, 4);
    std::memcpy(&out[5], &x, 8);
    std::memcpy(&out[13], &y, 8);
    return out;
}

// Microseconds since the epoch of a UTC civil time (Howard Hinnant's days_from_civil).
int64_t micros(int y, unsigned m, unsigned d, int hh = 0, int mm = 0, int ss = 0, int64_t us = 0) {
    y -= m <= 2;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    int64_t days = era * 146097 + static_cast<int64_t>(doe) - 719468;
    return ((days * 86400 + hh * 3600 + mm * 60 + ss) * 1000000) + us;
}

void write_file(const fs::path& p, const std::string& data) {
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
    if (!out) throw std::runtime_error("cannot write " + p.string());
}

taco::CollectionInfo collection(const std::string& id) {
    taco::CollectionInfo info;
    info.id = id;
    info.dataset_version = "1.0.0";
    info.description = "tacocore writer interop dataset '" + id + "'";
    info.licenses = {"CC-BY-4.0"};
    taco::Contact provider;
    provider.name = "tacocore tests";
    info.providers = {provider};
    info.tasks = {"other"};
    return info;
}

struct Built {
    Tortilla root;
    taco::CollectionInfo info;
};

// ---- the cases
// -------------------------------------------------------------------------------------

Built make_flat(const std::vector<std::string>&) {
    std::vector<Sample> roots;
    const char* places[] = {"Paris", "Lima", "Tokyo", "Sydney", "Madrid"};
    for (int i = 0; i < 5; ++i) {
        roots.push_back(file_bytes(
            "sample_" + std::to_string(i), "flat sample " + std::to_string(i) + std::string(i, '!'),
            {{"cloud_cover", Value(10.5 * i)}, {"location", Value(places[i])}}));
    }
    return {Tortilla(std::move(roots)), collection("flat")};
}

// One column per value type, in a deliberate non-sorted order; row 2 holds only typed nulls.
Built make_every_types(const std::vector<std::string>&) {
    auto row = [](int i) -> std::vector<taco::Field> {
        switch (i) {
            case 0:
                return {
                    {"v:string", Value("plain ascii")},
                    {"v:int64", Value(int64_t{9007199254740993})},
                    {"v:int32", Value::int32(-2147483647 - 1)},
                    {"v:double", Value(0.1)},
                    {"v:float32", Value(0.5f)},
                    {"v:bool", Value(true)},
                    {"v:timestamp", Value::timestamp(micros(2023, 1, 2, 3, 4, 5, 678901))},
                    {"v:binary", Value::binary(std::string("\x00\x01\xff\x80zero", 8))},
                    {"v:list_int64", Value::list({Value(1), Value(2), Value(3)})},
                    {"v:list_list_float32", Value::list({Value::list({Value(1.5f), Value(-2.25f)}),
                                                         Value::list({Value(3.0f)})})},
                    {"v:list_string", Value::list({Value("a"), Value("b c"), Value("")})},
                    {"all_null", Value()}};
            case 1:
                return {
                    {"v:string", Value("unicode é ✓ \"quoted\" \\ back")},
                    {"v:int64", Value(int64_t{-9223372036854775807LL - 1})},
                    {"v:int32", Value::int32(2147483647)},
                    {"v:double", Value(-1e-300)},
                    {"v:float32", Value(3.4028234663852886e38f)},
                    {"v:bool", Value(false)},
                    {"v:timestamp", Value::timestamp(micros(1969, 12, 31, 23, 59, 59))},
                    {"v:binary", Value::binary("")},
                    {"v:list_int64", Value::list(DataType::int64(), {})},
                    {"v:list_list_float32", Value::list(DataType::list(DataType::float32()), {})},
                    {"v:list_string", Value::list({Value("only")})},
                    {"all_null", Value()}};
            case 2:
                return {{"v:string", Value::null(DataType::string())},
                        {"v:int64", Value::null(DataType::int64())},
                        {"v:int32", Value::null(DataType::int32())},
                        {"v:double", Value::null(DataType::float64())},
                        {"v:float32", Value::null(DataType::float32())},
                        {"v:bool", Value::null(DataType::boolean())},
                        {"v:timestamp", Value::null(DataType::timestamp())},
                        {"v:binary", Value::null(DataType::binary())},
                        {"v:list_int64", Value::null(DataType::list(DataType::int64()))},
                        {"v:list_list_float32",
                         Value::null(DataType::list(DataType::list(DataType::float32())))},
                        {"v:list_string", Value::null(DataType::list(DataType::string()))},
                        {"all_null", Value()}};
            default:
                return {
                    {"v:string", Value("")},
                    {"v:int64", Value(int64_t{0})},
                    {"v:int32", Value::int32(7)},
                    {"v:double", Value(1e16)},
                    {"v:float32", Value(-0.125f)},
                    {"v:bool", Value(true)},
                    {"v:timestamp", Value::timestamp(0)},
                    {"v:binary", Value::binary(wkb_point(1.5, -2.5))},
                    {"v:list_int64",
                     Value::list({Value(5), Value::null(DataType::int64()), Value(7)})},
                    {"v:list_list_float32",
                     Value::list({Value::list(DataType::float32(), {}),
                                  Value::null(DataType::list(DataType::float32()))})},
                    {"v:list_string", Value::list({Value::null(DataType::string()), Value("x")})},
                    {"all_null", Value()}};
        }
    };
    std::vector<Sample> roots;
    for (int i = 0; i < 4; ++i)
        roots.push_back(
            file_bytes("row_" + std::to_string(i), "payload of row " + std::to_string(i), row(i)));
    return {Tortilla(std::move(roots)), collection("every-types")};
}

// Roots deliberately not in sorted order (catches offsets pasted in sorted-folder order, FORMAT.md
// §4.3); level-1 fields set in non-sorted order (level >= 1 columns are code-point sorted).
Built make_nested_2(const std::vector<std::string>&) {
    std::vector<Sample> roots;
    const char* regions[] = {"europe", "americas", "asia"};
    for (int r = 0; r < 3; ++r) {
        std::vector<Sample> items;
        for (int i = 0; i < 3; ++i) {
            std::string data = std::string(regions[r]) + " item " + std::to_string(i) +
                               std::string(r * 3 + i, '#');
            items.push_back(
                file_bytes("item_" + std::to_string(i), data,
                           {{"zeta", Value(int64_t{r * 10 + i})},
                            {"beta:x", Value(0.25 * i)},
                            {"Alpha", Value(std::string(regions[r]) + "/" + std::to_string(i))},
                            {"_under", Value(i % 2 == 0)},
                            {"beta", Value::timestamp(micros(2024, 1 + r, 1 + i))}}));
        }
        roots.push_back(folder(regions[r], std::move(items),
                               {{"region_name", Value(std::string("Region ") + regions[r])},
                                {"area_code", Value::int32(100 + r)}}));
    }
    return {Tortilla(std::move(roots)), collection("nested-2")};
}

// Level 1 mixes FOLDERs and a FILE, with two different FOLDER shapes below (two level-2 patterns).
Built make_nested_3(const std::vector<std::string>&) {
    std::vector<Sample> roots;
    const char* tiles[] = {"tile_b", "tile_c", "tile_a"};
    for (int t = 0; t < 3; ++t) {
        std::string tile = tiles[t];
        std::vector<Sample> s2_files, s1_files;
        for (const char* band : {"B04", "B03"}) {
            s2_files.push_back(
                file_bytes(band, tile + "/s2/" + band,
                           {{"wavelength_nm", Value(int64_t{band[2] == '4' ? 665 : 560})}}));
        }
        for (const char* pol : {"VV", "VH", "HH"}) {
            s1_files.push_back(file_bytes(pol, tile + "/s1/" + pol + std::string(t + 1, '~'),
                                          {{"wavelength_nm", Value::null(DataType::int64())}}));
        }
        std::vector<Sample> sensors;
        // Fields in non-sorted order: level 1 comes out code-point sorted (Zone, a:b,
        // resolution_m).
        auto sensor_fields = [&](int64_t res) -> std::vector<taco::Field> {
            return {{"resolution_m", Value(res)},
                    {"Zone", Value(tile + "-zone")},
                    {"a:b", Value(res > 0)}};
        };
        sensors.push_back(folder("s2", std::move(s2_files), sensor_fields(10)));
        sensors.push_back(folder("s1", std::move(s1_files), sensor_fields(20)));
        sensors.push_back(
            file_bytes("label.json", "{\"tile\": \"" + tile + "\"}", sensor_fields(0)));
        roots.push_back(folder(tile, std::move(sensors), {{"cloud_cover", Value(int64_t{t * 7})}}));
    }
    return {Tortilla(std::move(roots)), collection("nested-3")};
}

// Four levels: root -> a -> x -> files, roots unsorted.
Built make_nested_4(const std::vector<std::string>&) {
    std::vector<Sample> roots;
    for (const char* r : {"t1", "t0"}) {
        std::vector<Sample> mids;
        for (const char* m : {"mb", "ma"}) {
            std::vector<Sample> lows;
            for (const char* l : {"x", "w"}) {
                std::vector<Sample> files;
                for (const char* f : {"f1", "f0", "f2"}) {
                    std::string path = std::string(r) + "/" + m + "/" + l + "/" + f;
                    files.push_back(file_bytes(f, "bytes of " + path, {{"leaf", Value(path)}}));
                }
                lows.push_back(folder(l, std::move(files), {{"low", Value(std::string(l))}}));
            }
            mids.push_back(folder(m, std::move(lows), {{"mid", Value(1.5)}}));
        }
        roots.push_back(folder(r, std::move(mids), {{"root_tag", Value(std::string(r) + "!")}}));
    }
    return {Tortilla(std::move(roots)), collection("nested-4")};
}

// FOLDER roots whose children are padded to a multiple of 4 (typed-null fields on the pads);
// padding makes r2's two children line up with the others' three.
Built make_padding(const std::vector<std::string>&) {
    std::vector<Sample> roots;
    TortillaOptions pad4;
    pad4.pad_to = 4;
    for (const char* r : {"r1", "r0", "r2"}) {
        std::vector<Sample> kids;
        int real = r[1] == '2' ? 2 : 3;  // r2: two children + two pads, the others three + one
        for (int i = 0; i < real; ++i) {
            kids.push_back(file_bytes(
                "k" + std::to_string(i), std::string(r) + "/k" + std::to_string(i),
                {{"value", Value(int64_t{i})}, {"name", Value("kid " + std::to_string(i))}}));
        }
        roots.push_back(folder(r, std::move(kids), {{"root_value", Value(2.5)}}, pad4));
    }
    return {Tortilla(std::move(roots)), collection("padding")};
}

// FILE roots padded to a multiple of 4: 5 samples + 3 pads.
Built make_padding_flat(const std::vector<std::string>&) {
    std::vector<Sample> roots;
    for (int i = 0; i < 5; ++i) {
        roots.push_back(file_bytes(
            "s" + std::to_string(i), std::string(i + 1, 'a' + i),
            {{"score", Value(0.5 * i)}, {"tags", Value::list({Value("t" + std::to_string(i))})}}));
    }
    TortillaOptions pad4;
    pad4.pad_to = 4;
    return {Tortilla(std::move(roots), pad4), collection("padding-flat")};
}

Built make_unicode(const std::vector<std::string>&) {
    std::vector<Sample> roots;
    for (const char* r : {"données", "日本語", "emoji_🌍"}) {
        std::vector<Sample> kids;
        for (const char* k : {"β.tif", "α.tif", "Ωmega"}) {
            std::string path = std::string(r) + "/" + k;
            kids.push_back(
                file_bytes(k, "content of " + path, {{"label", Value("étiquette " + path)}}));
        }
        roots.push_back(folder(r, std::move(kids), {{"nom", Value(std::string("«") + r + "»")}}));
    }
    taco::CollectionInfo info = collection("données_unicode");
    info.description = "Ñandú 🌍 — test «unicode» \"quotes\"";
    info.title = "Títle with ünïcode";
    info.keywords = std::vector<std::string>{"日本", "ß"};
    return {Tortilla(std::move(roots)), info};
}

// Zero-byte samples: in memory and from an empty file on disk, between non-empty ones.
Built make_zero_bytes(const std::vector<std::string>& args) {
    if (args.empty()) throw std::invalid_argument("zero-bytes needs a SOURCE directory");
    fs::path dir = args[0];
    fs::create_directories(dir);
    write_file(dir / "empty.bin", "");
    write_file(dir / "one.bin", "1");
    std::vector<Sample> roots;
    auto with_size = [](Sample s, int64_t n) {
        s.set("declared_size", Value(n));
        return s;
    };
    roots.push_back(with_size(Sample::bytes("empty_first", ""), 0));
    roots.push_back(with_size(Sample::file("empty_file", dir / "empty.bin"), 0));
    roots.push_back(with_size(Sample::file("one_byte_file", dir / "one.bin"), 1));
    roots.push_back(with_size(Sample::bytes("empty_mem", std::string()), 0));
    roots.push_back(with_size(Sample::bytes("ten", "0123456789"), 10));
    roots.push_back(with_size(Sample::bytes("empty_last", ""), 0));
    return {Tortilla(std::move(roots)), collection("zero-bytes")};
}

// 70,000 FILE entries (plus header, level0 and COLLECTION.json): ZIP64 by entry count.
Built make_many(const std::vector<std::string>&) {
    std::vector<Sample> roots;
    roots.reserve(70000);
    for (int i = 0; i < 70000; ++i) {
        char id[16];
        std::snprintf(id, sizeof id, "s%05d", i);
        Sample s = Sample::bytes(id, std::to_string(i * 7));
        s.set("idx", Value(int64_t{i}));
        roots.push_back(std::move(s));
    }
    return {Tortilla(std::move(roots)), collection("many-70000")};
}

// A > 4 GiB FILE between two small ones: ZIP64 by size (sizes in the extra field) and by offset
// (the sample after it starts beyond 4 GiB).
Built make_big(const std::vector<std::string>& args) {
    if (args.empty())
        throw std::invalid_argument("big-4g needs the SOURCE file (> 4 GiB, may be sparse)");
    std::vector<Sample> roots;
    roots.push_back(file_bytes("head", "head sample", {{"part", Value("head")}}));
    Sample big = Sample::file("big", args[0]);
    big.set("part", Value("big"));
    roots.push_back(std::move(big));
    roots.push_back(file_bytes("tail", "tail sample after 4 GiB", {{"part", Value("tail")}}));
    return {Tortilla(std::move(roots)), collection("big-4g")};
}

Built make_stac_points(const std::string& id, const std::vector<std::pair<double, double>>& points,
                       const std::vector<int64_t>& times) {
    std::vector<Sample> roots;
    for (size_t i = 0; i < points.size(); ++i) {
        Sample s = Sample::bytes("p" + std::to_string(i), "point " + std::to_string(i));
        s.set("stac:crs", Value("EPSG:4326"));
        s.set("stac:centroid", Value::binary(wkb_point(points[i].first, points[i].second)));
        s.set("stac:time_start", Value::timestamp(times[i]));
        roots.push_back(std::move(s));
    }
    return {Tortilla(std::move(roots)), collection(id)};
}

// Extent computed from stac:centroid / stac:time_start (no extent given).
Built make_stac(const std::vector<std::string>&) {
    return make_stac_points("stac", {{2.35, 48.85}, {-77.0, -12.0}, {13.4, 52.5}, {-3.7, 40.4}},
                            {micros(2023, 3, 1), micros(2023, 1, 1),
                             micros(2023, 6, 15, 12, 30, 0, 250000), micros(2023, 2, 1)});
}

// Points on both sides of the antimeridian (Fiji): the extent must wrap (west > east).
Built make_stac_antimeridian(const std::vector<std::string>&) {
    return make_stac_points(
        "stac-antimeridian", {{178.5, -17.8}, {-179.0, -16.5}, {170.0, -19.0}, {-172.0, -13.8}},
        {micros(2022, 5, 1), micros(2022, 5, 2), micros(2022, 5, 3), micros(2022, 5, 4)});
}

// Invalid UTF-8 (raw bytes, e.g. a Latin-1 file name) in an id or a text value: must be refused
// when the sample is made, not written into Parquet STRING columns no reader can decode.
Built make_bad_utf8_id(const std::vector<std::string>&) {
    std::vector<Sample> roots;
    roots.push_back(Sample::bytes("ok", "x"));
    roots.push_back(Sample::bytes("caf\xe9", "latin-1 name"));
    return {Tortilla(std::move(roots)), collection("bad-utf8-id")};
}

Built make_bad_utf8_value(const std::vector<std::string>&) {
    std::vector<Sample> roots;
    roots.push_back(file_bytes("a", "x", {{"label", Value("ok")}}));
    roots.push_back(file_bytes("b", "y", {{"label", Value("caf\xe9")}}));
    return {Tortilla(std::move(roots)), collection("bad-utf8-value")};
}

const std::map<std::string, std::function<Built(const std::vector<std::string>&)>>& cases() {
    static const std::map<std::string, std::function<Built(const std::vector<std::string>&)>>
        table = {
            {"flat", make_flat},
            {"every-types", make_every_types},
            {"nested-2", make_nested_2},
            {"nested-3", make_nested_3},
            {"nested-4", make_nested_4},
            {"padding", make_padding},
            {"padding-flat", make_padding_flat},
            {"unicode", make_unicode},
            {"zero-bytes", make_zero_bytes},
            {"many-70000", make_many},
            {"big-4g", make_big},
            {"stac", make_stac},
            {"stac-antimeridian", make_stac_antimeridian},
            {"bad-utf8-id", make_bad_utf8_id},
            {"bad-utf8-value", make_bad_utf8_value},
        };
    return table;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::cerr << "usage: taco_make_dataset CASE OUTPUT [SOURCE]\ncases:";
        for (const auto& [name, fn] : cases()) std::cerr << " " << name;
        std::cerr << "\n";
        return 2;
    }
    std::string name = argv[1];
    auto it = cases().find(name);
    if (it == cases().end()) {
        std::cerr << "taco_make_dataset: unknown case '" << name << "'\n";
        return 2;
    }
    std::vector<std::string> extra(argv + 3, argv + argc);
    try {
        Built built = it->second(extra);
        bool extent_given = built.info.extent.has_value();
        taco::Taco dataset(std::move(built.root), std::move(built.info));
        taco::CreateResult r = taco::create(dataset, argv[2]);

        json out;
        out["case"] = name;
        out["result"] = {{"path", r.path.string()},
                         {"format", taco::to_string(r.format)},
                         {"bytes", r.bytes},
                         {"files", r.files},
                         {"level_rows", r.level_rows}};
        json coll;
        coll["id"] = dataset.info().id;
        coll["extent_given"] = extent_given;
        out["collection"] = std::move(coll);
        json samples = json::array();
        for (const auto& s : dataset.root().samples()) samples.push_back(describe(s));
        out["samples"] = std::move(samples);
        std::cout << out.dump() << "\n";
        return 0;
    } catch (const taco::Error& e) {
        std::cerr << "taco_make_dataset: " << e.kind() << ": " << e.what() << "\n";
        return 1;
    } catch (const std::exception& e) {
        std::cerr << "taco_make_dataset: " << e.what() << "\n";
        return 1;
    }
}
