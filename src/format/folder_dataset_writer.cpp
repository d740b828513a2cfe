// The FOLDER container (FORMAT.md §3): DATA/ tree with a __meta__ in every FOLDER sample,
// METADATA/levelN.parquet without offsets, COLLECTION.json.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>
#include <vector>

#include "format/dataset_writers.hpp"
#include "io/cancel.hpp"
#include "io/file.hpp"
#include "io/parallel.hpp"
#include "metadata/parquet_series.hpp"
#include "metadata/table_columns.hpp"
#include "taco/errors.hpp"

namespace fs = std::filesystem;

namespace taco::format {
namespace {

void make_dir(const fs::path& p) {
    std::error_code ec;
    if (!fs::create_directory(p, ec) || ec) {
        throw IoError("cannot create directory " + p.string() +
                      (ec ? ": " + ec.message() : " (exists)"));
    }
}

// Copies with the kernel (copy_file_range, which shares blocks where the filesystem can) and keeps
// the source's mtime, as the reference's shutil.copy2 does. Not std::filesystem::copy_file: it
// reports a full disk as "Input/output error". Permissions and mtime come from the open
// descriptors (fstat, futimens), not from the paths again: three fewer path walks per file, which
// is most of the cost of a 4 KiB sample.
void copy_sample_file(const fs::path& from, const fs::path& to, uint64_t expected) {
    io::File in = io::File::open_read(from);
    struct stat st {};
    const bool have_stat = ::fstat(in.fd(), &st) == 0;
    // The source's permission bits, as copy_file and shutil.copy2 give.
    io::File out = io::File::create_exclusive(to, have_stat ? (st.st_mode & 0777) : 0644);
    // One byte more than expected tells a file that grew from one that did not.
    const uint64_t got = io::copy_fd(in.fd(), out.fd(), expected + 1, from.string(), to.string());
    if (got != expected) {
        throw IoError(from.string() + " changed size while being copied (expected " +
                      std::to_string(expected) + " bytes, copied " + std::to_string(got) + ")");
    }
    if (have_stat) {
        const struct timespec times[2] = {{0, UTIME_OMIT}, st.st_mtim};
        (void)::futimens(out.fd(), times);  // best effort, as before: a lost mtime is no error
    }
    out.close();
}

// FILE samples are copied after the walk that creates the directories and __meta__ files, a
// batch at a time on kCopyThreads threads: on two cores one file's page-cache and inode work
// overlaps the other's (as export's copies, src/convert/export_writers.cpp). Progress and
// cancellation are reported on the calling thread after each batch.
constexpr size_t kCopyBatch = 64;
constexpr unsigned kCopyThreads = 2;

struct FileJob {
    const Sample* sample;
    fs::path path;
};

class FolderDatasetWriter {
  public:
    FolderDatasetWriter(WritePlan& plan, PendingSession& db, const fs::path& root)
        : plan_(plan), db_(db), root_(root) {}

    uint64_t write() {
        make_dir(root_);
        make_dir(root_ / "DATA");
        make_dir(root_ / "METADATA");
        const auto& roots = plan_.levels[0].rows;
        for (size_t i = 0; i < roots.size(); ++i)
            write_sample(0, static_cast<int64_t>(i), root_ / "DATA");
        write_metas();
        write_files();
        for (size_t d = 0; d < plan_.levels.size(); ++d) {
            auto cols = metadata::level_columns(plan_.levels, d, nullptr);
            fs::path p = root_ / "METADATA" / ("level" + std::to_string(d) + ".parquet");
            db_.get().write_parquet(cols, p.string(), plan_.level_parquet());
            bytes_ += fs::file_size(p);
        }
        io::File::create_with(root_ / "COLLECTION.json", plan_.collection_json, 0644);
        bytes_ += plan_.collection_json.size();
        return bytes_;
    }

  private:
    void write_sample(size_t level, int64_t row, const fs::path& dir) {
        const auto& r = plan_.levels[level].rows[row];
        const Sample& s = *r.sample;
        fs::path p = dir / s.id();
        if (s.is_folder()) {
            make_dir(p);
            for (size_t j = 0; j < s.children().size(); ++j) {
                write_sample(level + 1, r.child_begin + static_cast<int64_t>(j), p);
            }
            metas_.resize(std::max(metas_.size(), level + 1));
            metas_[level].push_back({row, p / "__meta__"});
            return;
        }
        files_.push_back({&s, std::move(p)});
    }

    // The __meta__ tables, a level at a time (they share a schema), encoded on the pool's
    // threads and written in walk order.
    void write_metas() {
        metadata::ParquetSeriesPool pool(db_.get(), WritePlan::meta_parquet(),
                                         WritePlan::meta_threads());
        for (size_t d = 0; d < metas_.size(); ++d) {
            const auto& jobs = metas_[d];
            const auto& rows = plan_.levels[d].rows;
            pool.encode(
                jobs.size(),
                [&](size_t k) {
                    const auto& r = rows[jobs[k].row];
                    return metadata::meta_columns(plan_.levels[d + 1], r.child_begin,
                                                  r.sample->children().size(), nullptr);
                },
                [&](size_t k, std::string& table) {
                    io::File::create_with(jobs[k].path, table, 0644);
                    bytes_ += table.size();
                });
        }
    }

    static void write_file(const FileJob& job) {
        const Sample& s = *job.sample;
        if (!s.path().empty()) {
            copy_sample_file(s.path(), job.path, s.size());
        } else {
            io::File::create_with(
                job.path, s.memory() ? std::string_view(*s.memory()) : std::string_view(), 0644);
        }
    }

    // The failure reported is the first in sample order (io::parallel_for's rule).
    void write_files() {
        for (size_t begin = 0; begin < files_.size(); begin += kCopyBatch) {
            const size_t end = std::min(files_.size(), begin + kCopyBatch);
            io::parallel_for(end - begin, kCopyThreads, [&](size_t k) {
                io::throw_if_cancelled("writing the dataset");
                write_file(files_[begin + k]);
            });
            for (size_t i = begin; i < end; ++i) {
                const uint64_t size = files_[i].sample->size();
                bytes_ += size;
                plan_.file_written(size);
            }
        }
    }

    WritePlan& plan_;
    PendingSession& db_;
    fs::path root_;
    std::vector<FileJob> files_;  // every FILE sample, in sample order
    uint64_t bytes_ = 0;
    struct MetaJob {
        int64_t row;  // the FOLDER's row in its level
        fs::path path;
    };
    std::vector<std::vector<MetaJob>> metas_;  // per level of the FOLDERs, in walk order
};

}  // namespace

uint64_t write_folder_dataset(WritePlan& plan, PendingSession& db, const fs::path& path) {
    return FolderDatasetWriter(plan, db, path).write();
}

}  // namespace taco::format
