// bench_reader: timings of the C++ reader.
//
//   bench_reader suite [--dataset ZIP | --dir DIR] [--samples N] [--sample-size BYTES]
//       The reader targets of issue 3 on a flat ZIP with 5 metadata columns (generated with
//       taco::create when --dataset is not given): load, data(), read by position and by id,
//       read_bytes, peak RSS of a process that only loads. Prints one JSON report.
//
//   bench_reader MODE DATASET [--keys FILE] [--out FILE] [--query SQL] [--threads N]
//       The contract of the benchmark harness (bench/tacocore_runner.py): one timed operation,
//       stdout {"seconds": <timed section>, "count": <rows or keys>}, --out lines in key order.
//       open           taco::load only                                   count = level-0 rows
//       load           taco::load + data()                               count = rows
//       sql            dataset.sql(QUERY).data_raw() (load not timed)    count = rows
//       read-position  data().read(i) per key                            --out: gdal_vsi path
//       read-id        data().read(id) per key                           --out: gdal_vsi path
//       raw            read_bytes(i) + CRC-32 per key, N threads         --out: "<crc32> <size>"
//       decode         read(i) + GDAL decode of every band, N threads    --out: pixel sum
//       decode-first   the first key only, GDAL cold (drivers not yet    --out: pixel sum
//                      registered): the first read_array after load()
//       nav            read(id) down each '/'-separated path             --out: leaf gdal_vsi
// stdout also carries "cpu_seconds": CPU time (all threads) of the timed section.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "io/crc32.hpp"
#include "io/file.hpp"
#include "io/parallel.hpp"
#include "raster/decode.hpp"
#include "taco/taco.hpp"

namespace fs = std::filesystem;
using namespace taco;
using Clock = std::chrono::steady_clock;

namespace {

double since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

// CPU seconds (user + system, all threads) used by this process so far. Reported next to wall
// time because the machines these run on are shared: CPU time is what contention does not inflate.
// Sum of every pixel of a uint16 raster: the decode modes' check value.
uint64_t pixel_sum(const std::string& dtype, const uint8_t* data, size_t bytes) {
    if (dtype != "uint16") throw FormatError("decode expects uint16 rasters, got " + dtype);
    uint64_t sum = 0;
    const auto* px = reinterpret_cast<const uint16_t*>(data);
    for (size_t i = 0; i < bytes / 2; ++i) sum += px[i];
    return sum;
}

double cpu_seconds() {
    struct rusage u {};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

std::vector<std::string> read_lines(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw IoError("cannot read keys file " + path);
    std::vector<std::string> out;
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) out.push_back(line);
    return out;
}

class Output {
  public:
    explicit Output(const std::string& path) {
        if (!path.empty()) file_.open(path, std::ios::binary | std::ios::trunc);
    }
    void line(const std::string& s) {
        if (file_.is_open()) file_ << s << '\n';
    }

  private:
    std::ofstream file_;
};

// Peak resident memory of this process since exec (VmHWM). ru_maxrss of a child is no good for
// this: it carries the parent's peak across fork + exec.
long peak_rss_bytes() {
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);) {
        if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6)) * 1024L;
    }
    return -1;
}

void report(double seconds, size_t count, double cpu = -1) {
    std::printf(
        "{\"seconds\": %.9f, \"count\": %zu, \"cpu_seconds\": %.6f, \"peak_rss_bytes\": %ld}\n",
        seconds, count, cpu, peak_rss_bytes());
}

const std::string& vsi_of(const ReadResult& r) {
    if (const auto* s = std::get_if<std::string>(&r)) return *s;
    throw NavigationError("expected a FILE sample, got a FOLDER");
}

// ---- the harness contract
// -------------------------------------------------------------------------

struct ModeArgs {
    std::string mode, dataset, keys, out, query = "SELECT * FROM data";
    unsigned threads = 1;
};

int run_mode(const ModeArgs& a) {
    Output out(a.out);
    if (a.mode == "open") {
        const double c = cpu_seconds();
        const auto t = Clock::now();
        const Dataset ds = load(a.dataset);
        const double s = since(t), cpu = cpu_seconds() - c;
        report(s, ds.count(), cpu);
        return 0;
    }
    if (a.mode == "load") {
        const double c = cpu_seconds();
        const auto t = Clock::now();
        const DataFrame df = load(a.dataset).data();
        const double s = since(t), cpu = cpu_seconds() - c;
        report(s, df.rows(), cpu);
        return 0;
    }
    const Dataset ds = load(a.dataset);
    if (a.mode == "sql") {
        // Every column, internal ones included: what tacoreader's sql() returns (a pyarrow Table
        // of the whole result) and what tacocore's Python sql() result is as a table (issue 15).
        const double c = cpu_seconds();
        const auto t = Clock::now();
        const DataFrame df = ds.sql(a.query).data_raw();
        const double s = since(t), cpu = cpu_seconds() - c;
        report(s, df.rows(), cpu);
        return 0;
    }
    const std::vector<std::string> keys = read_lines(a.keys);
    if (a.mode == "nav") {
        // Level 0 is materialized once, outside the timed section, like tacoreader's `.data`.
        const DataFrame top = ds.data();
        std::vector<std::string> results;
        const double c = cpu_seconds();
        const auto t = Clock::now();
        for (const auto& key : keys) {
            DataFrame frame = top;
            size_t start = 0;
            std::string leaf;
            while (true) {
                const size_t slash = key.find('/', start);
                const std::string id = key.substr(
                    start, slash == std::string::npos ? std::string::npos : slash - start);
                ReadResult r = frame.read(std::string_view(id));
                if (slash == std::string::npos) {
                    leaf = vsi_of(r);
                    break;
                }
                frame = std::get<DataFrame>(std::move(r));
                start = slash + 1;
            }
            results.push_back(std::move(leaf));
        }
        const double s = since(t), cpu = cpu_seconds() - c;
        for (const auto& r : results) out.line(r);
        report(s, keys.size(), cpu);
        return 0;
    }
    const DataFrame df = ds.data();
    std::vector<int64_t> positions;
    if (a.mode != "read-id") {
        for (const auto& k : keys) positions.push_back(std::stoll(k));
    }
    std::vector<std::string> results;
    std::vector<std::string> raw;  // the raw mode's bytes, checked after the clock
    results.reserve(keys.size());
    if (a.mode == "decode-first") {
        // The first pixels after load(): GDAL's driver registration, its first open of the
        // container and the decode of one sample, nothing warmed before the clock.
        if (positions.size() != 1) throw std::invalid_argument("decode-first takes one key");
        const double c = cpu_seconds();
        const auto t = Clock::now();
        const raster::Raster r = raster::decode(vsi_of(df.read(positions[0])));
        const double s = since(t), cpu = cpu_seconds() - c;
        out.line(std::to_string(pixel_sum(r.dtype, r.data.data(), r.data.size())));
        report(s, 1, cpu);
        return 0;
    }
    // Python's `from osgeo import gdal` registers GDAL's drivers at import, before the reference
    // starts its clock; the same here (the cold cost is the decode-first mode's row).
    if (a.mode == "decode") raster::register_drivers();
    const double c = cpu_seconds();
    const auto t = Clock::now();
    if (a.mode == "read-position") {
        for (int64_t p : positions) results.push_back(vsi_of(df.read(p)));
    } else if (a.mode == "read-id") {
        for (const auto& k : keys) results.push_back(vsi_of(df.read(std::string_view(k))));
    } else if (a.mode == "raw") {
        // One dataset, read_bytes from `threads` threads at once (1: on this thread). The bytes
        // are checked after the clock, as every tool's are (bench/reference_runner.py).
        raw.resize(positions.size());
        io::parallel_for(positions.size(), a.threads,
                         [&](size_t i) { raw[i] = df.read_bytes(positions[i]); });
    } else if (a.mode == "decode") {
        // Each raster is decoded into its thread's buffer, summed and dropped, as the
        // reference's loop does: holding all of them (decode_many) made this row pay 12,800
        // first-touch page faults for 100 x 512 KiB, ~25 ms of CPU that is not decoding
        // (docs/READER.md §10).
        std::vector<std::string> paths;
        for (int64_t p : positions) paths.push_back(vsi_of(df.read(p)));
        results.resize(paths.size());
        io::parallel_for(paths.size(), a.threads, [&](size_t i) {
            thread_local std::vector<uint8_t> buffer;
            const raster::RasterShape shape = raster::decode_reusing(paths[i], buffer);
            results[i] = std::to_string(pixel_sum(shape.dtype, buffer.data(), shape.bytes()));
        });
    } else {
        throw std::invalid_argument("unknown mode " + a.mode);
    }
    const double s = since(t), cpu = cpu_seconds() - c;
    for (const std::string& bytes : raw) {
        char line[32];
        std::snprintf(line, sizeof line, "%08" PRIx32 " %zu",
                      io::crc32(0, bytes.data(), bytes.size()), bytes.size());
        results.push_back(line);
    }
    for (const auto& r : results) out.line(r);
    report(s, keys.size(), cpu);
    return 0;
}

// ---- the suite ----------------------------------------------------------------------------------

struct SuiteArgs {
    std::string dataset, dir = "bench/out/reader";
    size_t samples = 1'000'000, sample_size = 4096;
};

// A flat ZIP: `n` FILE samples of `size` bytes (all from one source file, so generating needs no
// memory per sample) and 5 metadata columns of the common kinds.
fs::path generate(const SuiteArgs& a, double& seconds) {
    fs::create_directories(a.dir);
    const fs::path zip = fs::path(a.dir) / ("flat_" + std::to_string(a.samples) + "_" +
                                            std::to_string(a.sample_size) + ".tacozip");
    if (fs::exists(zip)) return zip;
    const fs::path source = fs::path(a.dir) / "sample.bin";
    {
        std::mt19937_64 rng(42);
        std::string bytes(a.sample_size, '\0');
        for (auto& c : bytes) c = static_cast<char>(rng());
        std::ofstream(source, std::ios::binary)
            .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    }
    const auto t = Clock::now();
    static const char* splits[] = {"train", "validation", "test"};
    std::vector<Sample> samples;
    samples.reserve(a.samples);
    for (size_t i = 0; i < a.samples; ++i) {
        char id[32];
        std::snprintf(id, sizeof id, "sample_%07zu", i);
        Sample s = Sample::file(id, source);
        s.set("cloud_cover", Value(static_cast<double>(i % 1000) / 10.0));
        s.set("split", Value(splits[i % 3]));
        s.set("row", Value(static_cast<long long>(i)));
        s.set("acquired",
              Value::timestamp(1'672'531'200'000'000LL + static_cast<int64_t>(i) * 60'000'000LL));
        char tile[32];
        std::snprintf(tile, sizeof tile, "T%05zu", i / 100);
        s.set("tile", Value(tile));
        samples.push_back(std::move(s));
    }
    CollectionInfo info;
    info.id = "bench_reader";
    info.dataset_version = "1.0.0";
    info.description = "reader benchmark: flat, 5 metadata columns";
    info.licenses = {"CC0-1.0"};
    Contact c;
    c.name = "tacocore";
    info.providers = {c};
    info.tasks = {"other"};
    create(Taco(Tortilla(std::move(samples)), info), zip);
    seconds = since(t);
    return zip;
}

struct ChildResult {
    double seconds, cpu;
    long rss;
};

// Runs `bench_reader MODE DATASET` in a child process: its reported seconds, CPU and peak RSS.
ChildResult child(const std::string& self, const std::string& mode, const std::string& dataset) {
    int pipefd[2];
    if (pipe(pipefd) != 0) throw IoError("pipe failed");
    const pid_t pid = fork();
    if (pid == 0) {
        dup2(pipefd[1], STDOUT_FILENO);
        close(pipefd[0]);
        execl(self.c_str(), self.c_str(), mode.c_str(), dataset.c_str(),
              static_cast<char*>(nullptr));
        _exit(127);
    }
    close(pipefd[1]);
    std::string out;
    char buf[256];
    for (ssize_t n; (n = read(pipefd[0], buf, sizeof buf)) > 0;)
        out.append(buf, static_cast<size_t>(n));
    close(pipefd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw IoError("child " + mode + " failed: " + out);
    auto number = [&](const char* key) { return out.substr(out.find(key) + std::strlen(key)); };
    return {std::stod(number("\"seconds\": ")), std::stod(number("\"cpu_seconds\": ")),
            std::stol(number("\"peak_rss_bytes\": "))};
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// The size of the level-0 table decoded, in Arrow's layout (what a reader holds once it has
// decoded it): 8 bytes per int64/double/timestamp cell, 4 per int32/float, 4 (offset) + the
// bytes per string, a bit per boolean and per validity cell. Unlike Parquet's
// total_uncompressed_size it does not depend on the encodings the writer chose.
uint64_t decoded_bytes(const DataFrame& df) {
    const size_t rows = df.rows();
    uint64_t bytes = 0;
    for (size_t c = 0; c < df.schema().size(); ++c) {
        bytes += (rows + 7) / 8;  // validity
        switch (df.schema()[c].type.id()) {
            case TypeId::Int64:
            case TypeId::Float64:
            case TypeId::Timestamp:
                bytes += 8 * rows;
                break;
            case TypeId::Int32:
            case TypeId::Float32:
                bytes += 4 * rows;
                break;
            case TypeId::Bool:
                bytes += (rows + 7) / 8;
                break;
            case TypeId::String:
            case TypeId::Binary:
                bytes += 4 * (rows + 1);
                for (size_t r = 0; r < rows; ++r) bytes += df.get_string(r, c).size();
                break;
            default:
                break;
        }
    }
    return bytes;
}

struct MetadataSize {
    uint64_t encoded = 0;  // Parquet's total_uncompressed_size: the pages before zstd
    uint64_t decoded = 0;  // decoded_bytes()
};

// The sizes of the level-0 table (copied out of the ZIP next to the dataset).
MetadataSize metadata_size(const fs::path& zip, const SuiteArgs& a) {
    io::File f = io::File::open_read(zip);
    uint8_t header[157];
    f.read_at(0, header, sizeof header);
    uint64_t offset = 0, size = 0;
    for (int i = 0; i < 8; ++i) offset |= static_cast<uint64_t>(header[45 + i]) << (8 * i);
    for (int i = 0; i < 8; ++i) size |= static_cast<uint64_t>(header[53 + i]) << (8 * i);
    std::string bytes(size, '\0');
    f.read_at(offset, bytes.data(), size);
    fs::create_directories(a.dir);  // also when --dataset skipped generating into it
    const fs::path level0 = fs::path(a.dir) / "level0.parquet";
    std::ofstream(level0, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(size));
    const std::string file = "'" + fs::absolute(level0).string() + "'";
    const Dataset ds = load(zip);
    MetadataSize out;
    out.encoded = static_cast<uint64_t>(
        ds.sql("SELECT sum(total_uncompressed_size)::BIGINT FROM parquet_metadata(" + file + ")")
            .data()
            .get_int(0, 0));
    out.decoded = decoded_bytes(ds.sql("SELECT * FROM read_parquet(" + file + ")").data());
    return out;
}

template <typename Fn>
double per_op_us(size_t n, Fn&& fn) {
    const auto t = Clock::now();
    for (size_t i = 0; i < n; ++i) fn(i);
    return since(t) * 1e6 / static_cast<double>(n);
}

int run_suite(const SuiteArgs& a, const std::string& self) {
    double generate_seconds = 0;
    const fs::path zip = a.dataset.empty() ? generate(a, generate_seconds) : fs::path(a.dataset);

    std::vector<double> open_s, open_cpu, load_s, load_cpu;
    std::vector<long> open_rss, load_rss;
    for (int i = 0; i < 5; ++i) {
        const ChildResult r = child(self, "open", zip.string());
        open_s.push_back(r.seconds);
        open_cpu.push_back(r.cpu);
        open_rss.push_back(r.rss);
    }
    for (int i = 0; i < 5; ++i) {
        const ChildResult r = child(self, "load", zip.string());
        load_s.push_back(r.seconds);
        load_cpu.push_back(r.cpu);
        load_rss.push_back(r.rss);
    }

    const Dataset ds = load(zip);
    std::vector<double> data_s, data_cpu;
    DataFrame df;
    for (int i = 0; i < 5; ++i) {
        const double c = cpu_seconds();
        const auto t = Clock::now();
        df = ds.data();
        data_s.push_back(since(t));
        data_cpu.push_back(cpu_seconds() - c);
    }
    const size_t n = df.rows();
    const size_t id_col = *df.column_index("id");

    std::mt19937_64 rng(7);
    const size_t ops = 200'000;
    std::vector<int64_t> positions(ops);
    for (auto& p : positions) p = static_cast<int64_t>(rng() % n);
    std::vector<std::string> ids(ops);
    for (size_t i = 0; i < ops; ++i)
        ids[i] = std::string(df.get_string(static_cast<size_t>(positions[i]), id_col));

    size_t sink = 0;
    const double read_pos_us =
        per_op_us(ops, [&](size_t i) { sink += vsi_of(df.read(positions[i])).size(); });
    auto t = Clock::now();
    sink += vsi_of(df.read(std::string_view(ids[0]))).size();
    const double first_id_ms = since(t) * 1e3;
    const double read_id_us =
        per_op_us(ops, [&](size_t i) { sink += vsi_of(df.read(std::string_view(ids[i]))).size(); });
    // The samples are read once before timing: the target is the reader's cost on top of a
    // page-cache hit, and a 4 GiB archive on a shared machine is not reliably cached otherwise.
    for (size_t i = 0; i < ops; ++i) sink += df.read_bytes(positions[i]).size();
    const double read_bytes_us =
        per_op_us(ops, [&](size_t i) { sink += df.read_bytes(positions[i]).size(); });
    // The floor: one pread of the same size at the same places, through a kept-open descriptor.
    io::File raw = io::File::open_read(zip);
    std::string buffer(a.sample_size, '\0');
    std::vector<uint64_t> offsets(ops);
    for (size_t i = 0; i < ops; ++i) {
        const std::string& vsi = vsi_of(df.read(positions[i]));
        offsets[i] = std::stoull(vsi.substr(12));
    }
    const double pread_us =
        per_op_us(ops, [&](size_t i) { raw.read_at(offsets[i], buffer.data(), buffer.size()); });

    const MetadataSize meta = metadata_size(zip, a);
    std::printf(
        "{\"dataset\": \"%s\", \"samples\": %zu, \"zip_bytes\": %" PRIu64
        ", \"generate_seconds\": %.3f,\n"
        " \"load_seconds_median\": %.4f, \"load_seconds_min\": %.4f, \"load_cpu_seconds_median\": "
        "%.4f,\n"
        " \"load_plus_data_seconds_median\": %.4f, \"load_plus_data_seconds_min\": %.4f,"
        " \"load_plus_data_cpu_seconds_median\": %.4f,\n"
        " \"data_seconds_median\": %.4f, \"data_seconds_min\": %.4f, \"data_cpu_seconds_median\": "
        "%.4f,\n"
        " \"read_position_us\": %.3f, \"read_id_first_call_ms\": %.2f, \"read_id_us\": %.3f,\n"
        " \"read_bytes_us\": %.3f, \"pread_us\": %.3f, \"sample_bytes\": %zu,\n"
        " \"load_peak_rss_bytes\": %ld, \"load_plus_data_peak_rss_bytes\": %ld,\n"
        " \"metadata_uncompressed_bytes\": %" PRIu64 ", \"metadata_decoded_bytes\": %" PRIu64
        ", \"checksum\": %zu}\n",
        zip.string().c_str(), n, static_cast<uint64_t>(fs::file_size(zip)), generate_seconds,
        median(open_s), *std::min_element(open_s.begin(), open_s.end()), median(open_cpu),
        median(load_s), *std::min_element(load_s.begin(), load_s.end()), median(load_cpu),
        median(data_s), *std::min_element(data_s.begin(), data_s.end()), median(data_cpu),
        read_pos_us, first_id_ms, read_id_us, read_bytes_us, pread_us, a.sample_size,
        *std::max_element(open_rss.begin(), open_rss.end()),
        *std::max_element(load_rss.begin(), load_rss.end()), meta.encoded, meta.decoded, sink);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"bench_reader - timings of the tacocore reader"};
    app.require_subcommand(1);
    SuiteArgs suite;
    CLI::App* s = app.add_subcommand(
        "suite", "The issue-3 reader targets on a 1M-sample flat ZIP (JSON report)");
    s->add_option("--dataset", suite.dataset, "Use this ZIP instead of generating one");
    s->add_option("--dir", suite.dir, "Where to generate (default bench/out/reader)");
    s->add_option("--samples", suite.samples, "Samples to generate (default 1000000)");
    s->add_option("--sample-size", suite.sample_size, "Bytes per sample (default 4096)");

    ModeArgs mode;
    std::vector<CLI::App*> modes;
    for (const char* name : {"open", "load", "sql", "read-position", "read-id", "raw", "decode",
                             "decode-first", "nav"}) {
        CLI::App* m = app.add_subcommand(
            name, std::string("bench_reader ") + name + " DATASET (harness contract)");
        m->add_option("dataset", mode.dataset, "Dataset path")->required();
        m->add_option("--keys", mode.keys, "Keys file, one per line");
        m->add_option("--out", mode.out, "Results file, one line per key");
        m->add_option("--query", mode.query, "SQL for the sql mode");
        m->add_option("--threads", mode.threads, "Decode / read threads");
        modes.push_back(m);
    }
    CLI11_PARSE(app, argc, argv);
    try {
        if (s->parsed()) return run_suite(suite, fs::canonical("/proc/self/exe").string());
        for (CLI::App* m : modes) {
            if (m->parsed()) {
                mode.mode = m->get_name();
                if (mode.mode != "open" && mode.mode != "load" && mode.mode != "sql" &&
                    mode.keys.empty()) {
                    throw std::invalid_argument(mode.mode + " needs --keys FILE");
                }
                return run_mode(mode);
            }
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_reader: error: %s\n", e.what());
        return 1;
    }
    return 2;
}
