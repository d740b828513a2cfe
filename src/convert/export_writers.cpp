#include "convert/export_writers.hpp"

#include <sys/stat.h>
#include <time.h>

#include <algorithm>
#include <system_error>

#include "convert/sample_copy.hpp"
#include "convert/source_crcs.hpp"
#include "format/taco_header.hpp"
#include "format/zip_writer.hpp"
#include "io/cancel.hpp"
#include "io/file.hpp"
#include "io/memfd.hpp"
#include "io/parallel.hpp"
#include "taco/errors.hpp"

namespace fs = std::filesystem;

namespace taco::convert {

double ExportJob::thread_cpu_seconds() {
    timespec t{};
    ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

void ExportJob::file_copied(uint64_t bytes) {
    io::throw_if_cancelled("exporting the dataset");
    sample_bytes += bytes;
    done.bytes_done += bytes;
    ++done.files_done;
    if (progress) progress(done);
}

namespace {

// FOLDER rows of level `d` in the reference's __meta__ order: code-point order of their paths.
std::vector<size_t> folders_by_path(const std::vector<TreeRow>& rows) {
    std::vector<size_t> out;
    for (size_t i = 0; i < rows.size(); ++i)
        if (rows[i].folder) out.push_back(i);
    std::sort(out.begin(), out.end(),
              [&](size_t a, size_t b) { return rows[a].path < rows[b].path; });
    return out;
}

class ZipExport {
  public:
    ZipExport(ExportJob& job, format::ZipWriter& zip)
        : job_(job), zip_(zip), tables_(job.ctx, job.tree, true, job.level_options) {}

    void write() {
        auto& levels = job_.tree.levels;
        const size_t header = zip_.add_bytes(format::kTacoHeaderEntryName,
                                             std::string(format::kTacoHeaderPayloadSize, '\0'),
                                             format::EntryAttrs::header_entry());
        // The byte-copy phase, timed as a whole (a clock read per sample would cost as much
        // as copying a small one).
        job_.timed_copy([&] {
            for (size_t i = 0; i < levels[0].size(); ++i) write_data(0, i);
            return 0;
        });
        // __meta__ deepest first: a folder's table holds its children's final offsets.
        for (size_t d = levels.size() - 1; d-- > 0;) {
            tables_.stage(d + 1);
            const std::vector<size_t> folders = folders_by_path(levels[d]);
            tables_.write_metas(d, folders, [&](size_t k, std::string& table) {
                TreeRow& r = levels[d][folders[k]];
                const size_t e = zip_.add_bytes("DATA/" + r.path + "__meta__", table);
                r.offset = static_cast<int64_t>(zip_.entry(e).data_offset);
                r.size = static_cast<int64_t>(zip_.entry(e).size);
            });
        }
        tables_.stage(0);
        format::TacoHeader slots;
        for (size_t d = 0; d < levels.size(); ++d) {
            const size_t e = add_table("METADATA/level" + std::to_string(d) + ".parquet",
                                       [&](const std::string& p) { tables_.write_level(d, p); });
            slots.slots.emplace_back(zip_.entry(e).data_offset, zip_.entry(e).size);
        }
        const size_t c = zip_.add_bytes("COLLECTION.json", job_.collection_json(tables_));
        slots.slots.emplace_back(zip_.entry(c).data_offset, zip_.entry(c).size);
        zip_.rewrite_entry_data(header, format::encode_taco_header_payload(slots));
        zip_.finish();
    }

  private:
    // Depth-first in sample order, as the reference writes DATA/ (FORMAT.md §2.1).
    void write_data(size_t d, size_t i) {
        TreeRow& r = job_.tree.levels[d][i];
        if (r.folder) {
            for (int64_t k = 0; k < r.child_count; ++k)
                write_data(d + 1, static_cast<size_t>(r.child_begin + k));
            return;
        }
        const std::string entry = "DATA/" + r.path;
        const size_t e = r.vsi.empty()
                             ? zip_.add_bytes(entry, "")
                             : copy_sample_to_zip(job_.ctx, r.vsi, r.path, zip_, entry, crcs_);
        r.offset = static_cast<int64_t>(zip_.entry(e).data_offset);
        r.size = static_cast<int64_t>(zip_.entry(e).size);
        job_.file_copied(zip_.entry(e).size);
    }

    template <typename Write>
    size_t add_table(const std::string& entry, Write&& write) {
        io::MemFd mem("taco-export");
        write(mem.proc_path());
        return zip_.add_fd(entry, mem.fd(), mem.size());
    }

    ExportJob& job_;
    format::ZipWriter& zip_;
    ExportTables tables_;
    SourceCrcs crcs_;
};

void make_dir(const fs::path& p) {
    std::error_code ec;
    if (!fs::create_directory(p, ec) || ec) {
        throw IoError("cannot create directory " + p.string() +
                      (ec ? ": " + ec.message() : " (exists)"));
    }
}

uint64_t file_bytes(const fs::path& p) {
    std::error_code ec;
    const auto n = fs::file_size(p, ec);
    return ec ? 0 : n;
}

// Samples per batch: located on this thread (the dataset context is not thread-safe, and a
// FOLDER source holds one descriptor per located sample), then copied by kCopyThreads.
constexpr size_t kCopyBatch = 64;
// Two copies at once: on two cores the kernel's page-cache work for one file overlaps the
// other's (each file has its own inode lock); more threads only wait for the disk.
constexpr unsigned kCopyThreads = 2;

// Copies the FILE rows `files` to their paths under `data`, setting each row's size; returns
// the bytes copied. Progress and cancellation are checked on this thread, once per sample.
uint64_t copy_files_in_parallel(ExportJob& job, const fs::path& data,
                                const std::vector<TreeRow*>& files) {
    uint64_t bytes = 0;
    std::vector<query::FileRange> ranges;
    for (size_t begin = 0; begin < files.size(); begin += kCopyBatch) {
        const size_t end = std::min(files.size(), begin + kCopyBatch);
        ranges.assign(end - begin, {});
        bool all_local = true;
        for (size_t i = begin; i < end; ++i) {
            const TreeRow& r = *files[i];
            if (r.vsi.empty()) continue;  // padding: an empty file
            ranges[i - begin] =
                query::locate_file(job.ctx, r.vsi, [&] { return "'" + r.path + "'"; });
            all_local = all_local && ranges[i - begin].source->local_fd() >= 0;
        }
        io::parallel_for(end - begin, all_local ? kCopyThreads : 1, [&](size_t k) {
            io::throw_if_cancelled("exporting the dataset");
            TreeRow& r = *files[begin + k];
            const fs::path p = data / r.path;
            io::File f = io::File::create_exclusive(p, 0644);
            const uint64_t n =
                ranges[k].source ? copy_range_to_file(ranges[k], r.path, f.fd(), p.string()) : 0;
            f.close();
            r.size = static_cast<int64_t>(n);
        });
        ranges.clear();  // closes a FOLDER source's descriptors before the next batch
        for (size_t i = begin; i < end; ++i) {
            const uint64_t n = static_cast<uint64_t>(files[i]->size);
            bytes += n;
            job.file_copied(n);
        }
    }
    return bytes;
}

}  // namespace

uint64_t write_zip_export(ExportJob& job, const fs::path& path) {
    io::File out = io::File::create_exclusive(path, 0644);
    format::ZipWriter zip(out.fd(), path.string());
    ZipExport(job, zip).write();
    const uint64_t size = zip.position();
    out.close();
    return size;
}

uint64_t write_folder_export(ExportJob& job, const fs::path& root) {
    auto& levels = job.tree.levels;
    uint64_t bytes = 0;
    make_dir(root);
    make_dir(root / "DATA");
    make_dir(root / "METADATA");
    const fs::path data = root / "DATA";
    // The byte-copy phase, timed as a whole.
    job.timed_copy([&] {
        // Level by level, every folder exists before any file is written into one.
        std::vector<TreeRow*> files;
        for (auto& level : levels) {
            for (TreeRow& r : level) {
                if (r.folder) {
                    make_dir(data / r.path);
                } else {
                    files.push_back(&r);
                }
            }
        }
        bytes += copy_files_in_parallel(job, data, files);
        return 0;
    });
    ExportTables tables(job.ctx, job.tree, false, job.level_options);
    for (size_t d = levels.size(); d-- > 0;) tables.stage(d);
    for (size_t d = 0; d + 1 < levels.size(); ++d) {
        const std::vector<size_t> folders = folders_by_path(levels[d]);
        tables.write_metas(d, folders, [&](size_t k, std::string& table) {
            io::File::create_with(data / (levels[d][folders[k]].path + "__meta__"), table, 0644);
            bytes += table.size();
        });
    }
    for (size_t d = 0; d < levels.size(); ++d) {
        const fs::path p = root / "METADATA" / ("level" + std::to_string(d) + ".parquet");
        tables.write_level(d, p.string());
        bytes += file_bytes(p);
    }
    const std::string json = job.collection_json(tables);
    io::File::create_with(root / "COLLECTION.json", json, 0644);
    return bytes + json.size();
}

}  // namespace taco::convert
