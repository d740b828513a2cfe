// The ZIP container in one forward pass (FORMAT.md §2.1): TACO_HEADER placeholder, sample data
// depth-first, __meta__ deepest-first, level tables, COLLECTION.json, then the header is patched.
// Every offset is known when it is needed because each table only points backwards.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>

#include "format/dataset_writers.hpp"
#include "format/taco_header.hpp"
#include "format/zip_writer.hpp"
#include "io/file.hpp"
#include "io/memfd.hpp"
#include "io/read_ahead.hpp"
#include "io/trace.hpp"
#include "metadata/parquet_series.hpp"
#include "metadata/table_columns.hpp"
#include "taco/errors.hpp"

namespace taco::format {
namespace {

using metadata::LevelTable;
using metadata::Placement;

class ZipDatasetWriter {
  public:
    ZipDatasetWriter(WritePlan& plan, PendingSession& db, ZipWriter& zip)
        : plan_(plan), db_(db), zip_(zip), placement_(plan.levels.size()), sources_(disk_files()) {
        for (size_t d = 0; d < plan.levels.size(); ++d) {
            placement_[d].offset.assign(plan.levels[d].rows.size(), 0);
            placement_[d].size.assign(plan.levels[d].rows.size(), 0);
        }
    }

    void write() {
        size_t header =
            zip_.add_bytes(kTacoHeaderEntryName, std::string(kTacoHeaderPayloadSize, '\0'),
                           EntryAttrs::header_entry());
        const auto& roots = plan_.levels[0].rows;
        {
            io::TraceScope t("zip: sample data");
            for (size_t i = 0; i < roots.size(); ++i)
                write_data(0, static_cast<int64_t>(i), "DATA/");
        }
        {
            io::TraceScope t("zip: __meta__ tables");
            write_folder_metas();
        }
        io::TraceScope t("zip: level tables");
        TacoHeader slots;
        for (size_t d = 0; d < plan_.levels.size(); ++d) {
            auto cols = metadata::level_columns(plan_.levels, d, &placement_[d]);
            size_t e = add_parquet("METADATA/level" + std::to_string(d) + ".parquet", cols,
                                   plan_.level_parquet());
            slots.slots.emplace_back(zip_.entry(e).data_offset, zip_.entry(e).size);
        }
        size_t c = zip_.add_bytes("COLLECTION.json", plan_.collection_json);
        slots.slots.emplace_back(zip_.entry(c).data_offset, zip_.entry(c).size);
        zip_.rewrite_entry_data(header, encode_taco_header_payload(slots));
        io::TraceScope f("zip: central directory");
        zip_.finish();
    }

  private:
    // The files on disk in the order write_data copies them, for sources_ to read ahead.
    std::vector<const std::filesystem::path*> disk_files() const {
        std::vector<const std::filesystem::path*> files;
        for (size_t i = 0; i < plan_.levels[0].rows.size(); ++i)
            collect_disk_files(0, static_cast<int64_t>(i), files);
        return files;
    }
    void collect_disk_files(size_t level, int64_t row,
                            std::vector<const std::filesystem::path*>& files) const {
        const auto& r = plan_.levels[level].rows[row];
        const Sample& s = *r.sample;
        if (s.is_folder()) {
            for (size_t j = 0; j < s.children().size(); ++j)
                collect_disk_files(level + 1, r.child_begin + static_cast<int64_t>(j), files);
        } else if (!s.path().empty()) {
            files.push_back(&s.path());
        }
    }

    // Depth-first in sample order: a FOLDER's files come right after it, before its next sibling.
    void write_data(size_t level, int64_t row, const std::string& prefix) {
        const auto& r = plan_.levels[level].rows[row];
        const Sample& s = *r.sample;
        std::string name = prefix + s.id();
        if (s.is_folder()) {
            for (size_t j = 0; j < s.children().size(); ++j) {
                write_data(level + 1, r.child_begin + static_cast<int64_t>(j), name + "/");
            }
            return;
        }
        size_t e;
        if (!s.path().empty()) {
            const size_t k = next_source_++;
            e = zip_.add_file(name, sources_.take(k), sources_.path(k).native());
            if (zip_.entry(e).size != s.size()) {
                throw IoError("sample '" + name.substr(5) + "': " + s.path().string() +
                              " changed size while " + "being written (expected " +
                              std::to_string(s.size()) + " bytes, read " +
                              std::to_string(zip_.entry(e).size) + ")");
            }
        } else {
            e = zip_.add_bytes(name,
                               s.memory() ? std::string_view(*s.memory()) : std::string_view());
        }
        placement_[level].offset[row] = static_cast<int64_t>(zip_.entry(e).data_offset);
        placement_[level].size[row] = static_cast<int64_t>(zip_.entry(e).size);
        plan_.file_written(s.size());
    }

    // One __meta__ per FOLDER row: deepest level first, code-point order of the path within a
    // level (the reference order), so every child's bytes are placed before its parent's table.
    // The tables are encoded on the pool's threads and appended in that order.
    void write_folder_metas() {
        metadata::ParquetSeriesPool metas(db_.get(), WritePlan::meta_parquet(),
                                          WritePlan::meta_threads());
        for (size_t d = plan_.levels.size(); d-- > 0;) {
            std::vector<std::pair<std::string, int64_t>> folders;
            const auto& rows = plan_.levels[d].rows;
            for (size_t i = 0; i < rows.size(); ++i) {
                if (!rows[i].sample->is_folder()) continue;
                std::string dir = d == 0 ? rows[i].sample->id() + "/" : rows[i].relative_path;
                folders.emplace_back("DATA/" + dir + "__meta__", static_cast<int64_t>(i));
            }
            std::sort(folders.begin(), folders.end());
            metas.encode(
                folders.size(),
                [&](size_t k) {
                    const auto& r = rows[folders[k].second];
                    return metadata::meta_columns(plan_.levels[d + 1], r.child_begin,
                                                  r.sample->children().size(), &placement_[d + 1]);
                },
                [&](size_t k, std::string& table) {
                    const auto& [name, row] = folders[k];
                    size_t e = zip_.add_bytes(name, table);
                    placement_[d].offset[row] = static_cast<int64_t>(zip_.entry(e).data_offset);
                    placement_[d].size[row] = static_cast<int64_t>(zip_.entry(e).size);
                });
        }
    }

    size_t add_parquet(const std::string& name, const std::vector<metadata::TableColumn>& cols,
                       const metadata::ParquetOptions& options) {
        io::MemFd mem("taco-parquet");
        db_.get().write_parquet(cols, mem.proc_path(), options);
        return zip_.add_fd(name, mem.fd(), mem.size());
    }

    WritePlan& plan_;
    PendingSession& db_;
    ZipWriter& zip_;
    std::vector<Placement> placement_;
    io::ReadAhead sources_;
    size_t next_source_ = 0;
};

}  // namespace

uint64_t write_zip_dataset(WritePlan& plan, PendingSession& db, const std::filesystem::path& path) {
    io::File out = io::File::create_exclusive(path, 0644);
    ZipWriter zip(out.fd(), path.string());
    ZipDatasetWriter(plan, db, zip).write();
    uint64_t size = zip.position();
    out.close();  // no fsync: the rename protects against crashes of the process, like zip/tar
    return size;
}

}  // namespace taco::format
