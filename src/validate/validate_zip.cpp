// ZIP container checks (FORMAT.md §2): TACO_HEADER (signature, name, CRC, slots), the central
// directory, STORE only, and every internal:offset / internal:size — in the level tables and in
// every __meta__ — against the entry the central directory has at that data offset.
#include <algorithm>
#include <memory>
#include <unordered_map>

#include "format/taco_header.hpp"
#include "format/zip_reader.hpp"
#include "io/crc32.hpp"
#include "io/file.hpp"
#include "io/little_endian.hpp"
#include "io/memfd.hpp"
#include "taco/errors.hpp"
#include "validate/validate_checks.hpp"
#include "validate/validate_tables.hpp"

namespace taco::format {
namespace {

struct Slot {
    std::string name;
    uint64_t offset = 0;
    uint64_t size = 0;
};

std::string range(uint64_t offset, uint64_t size) {
    return "(" + std::to_string(offset) + ", " + std::to_string(size) + ")";
}
// The values a level table stores (int64 columns): a negative offset prints as itself.
std::string range(int64_t offset, int64_t size) {
    return "(" + std::to_string(offset) + ", " + std::to_string(size) + ")";
}

class ZipValidator {
  public:
    ZipValidator(const std::filesystem::path& path, FindingSink& sink, metadata::DuckSession& db,
                 const ValidateOptions& options)
        : path_(path),
          name_(path.string()),
          sink_(sink),
          options_(options),
          file_(io::File::open_read(path)),
          tables_{sink, db, ContainerFormat::Zip, {}} {}

    void run() {
        check_header();
        check_directory();
        std::vector<Slot> slots = metadata_slots();
        if (slots.empty()) return;
        std::optional<CollectionDocument> collection;
        if (const auto text = read(slots.back()))
            collection = check_collection(sink_, *text, "COLLECTION.json");
        if (!load_levels({slots.begin(), slots.end() - 1})) return;
        check_level_rows(tables_);
        check_pit(tables_);
        if (collection) check_collection_schemas(tables_, *collection);
        if (!dir_) return;
        check_row_offsets();
        check_metas();
        check_unreferenced();
    }

  private:
    // The bytes of a metadata entry, or nullopt (reported) when its range does not lie inside the
    // file: a size from the directory or header is never trusted for an allocation.
    std::optional<std::string> read(const Slot& s) {
        const uint64_t file_size = file_.size();
        if (s.offset > file_size || file_size - s.offset < s.size) {
            sink_.error("zip.range", s.name,
                        "bytes " + range(s.offset, s.size) + " lie past the end of the file (" +
                            std::to_string(file_size) + " bytes)");
            return std::nullopt;
        }
        std::string out(s.size, '\0');
        if (s.size) file_.read_at(s.offset, out.data(), out.size());
        return out;
    }

    void check_header() {
        uint8_t head[kTacoHeaderSize] = {};
        const size_t n = static_cast<size_t>(std::min<uint64_t>(file_.size(), kTacoHeaderSize));
        file_.read_at(0, head, n);
        try {
            header_ = parse_taco_header(head, n, name_);
        } catch (const FormatError& e) {
            sink_.error("zip.header", "TACO_HEADER", e.what());
            return;
        }
        payload_crc_ = io::crc32(0, head + kTacoHeaderPayloadOffset, kTacoHeaderPayloadSize);
        const uint32_t lfh_crc = io::load_le32(head + 14);
        if (lfh_crc != payload_crc_) {
            sink_.error("zip.header-crc", "TACO_HEADER",
                        "local header CRC-32 is " + std::to_string(lfh_crc) +
                            " but the 116-byte payload has CRC-32 " + std::to_string(payload_crc_));
        }
        if (header_->slots.size() < 2) {
            sink_.error("zip.header", "TACO_HEADER",
                        "lists " + std::to_string(header_->slots.size()) +
                            " entries; expected the level tables and COLLECTION.json");
        }
    }

    void check_directory() {
        try {
            dir_ = read_zip_directory(file_, name_);
        } catch (const FormatError& e) {
            sink_.error("zip.directory", "central directory", e.what());
            return;
        }
        const ZipDirectory& dir = *dir_;
        if (dir.empty() || dir[0].name != kTacoHeaderEntryName || dir[0].local_header_offset != 0) {
            sink_.error("zip.header", "central directory",
                        "the first entry must be TACO_HEADER with its local header at byte 0");
        } else if (header_ && dir[0].crc != payload_crc_) {
            sink_.error("zip.header-crc", "central directory record of TACO_HEADER",
                        "CRC-32 is " + std::to_string(dir[0].crc) + " but the payload has " +
                            std::to_string(payload_crc_));
        }
        std::vector<char> buffer;
        for (size_t i = 0; i < dir.size(); ++i) {
            const ZipEntry& e = dir[i];
            const std::string where(e.name);
            if (e.method != 0) {
                sink_.error("zip.compression", where,
                            "compressed with method " + std::to_string(e.method) +
                                "; TACO ZIPs store every entry uncompressed (STORE) so readers can "
                                "use byte ranges",
                            "zip.entries");
            } else if (e.compressed_size != e.uncompressed_size) {
                sink_.error("zip.compression", where,
                            "stored entry with compressed size " +
                                std::to_string(e.compressed_size) + " != uncompressed size " +
                                std::to_string(e.uncompressed_size),
                            "zip.entries");
            }
            if (e.flags & 1) {
                sink_.error("zip.encrypted", where, "the entry is encrypted", "zip.entries");
            }
            if (options_.check_crc && e.method == 0) check_entry_crc(e, buffer);
        }
    }

    void check_entry_crc(const ZipEntry& e, std::vector<char>& buffer) {
        buffer.resize(size_t{4} << 20);
        uint32_t crc = 0;
        for (uint64_t done = 0; done < e.compressed_size;) {
            const size_t n =
                static_cast<size_t>(std::min<uint64_t>(buffer.size(), e.compressed_size - done));
            file_.read_at(e.data_offset + done, buffer.data(), n);
            crc = io::crc32(crc, buffer.data(), n);
            done += n;
        }
        if (crc != e.crc) {
            sink_.error("zip.crc", std::string(e.name),
                        "data has CRC-32 " + std::to_string(crc) + ", the directory says " +
                            std::to_string(e.crc),
                        "zip.crc");
        }
    }

    // Level tables then COLLECTION.json, from the header; from the directory names when the
    // header is unusable. Each slot is checked against the directory entry of the same name.
    std::vector<Slot> metadata_slots() {
        std::vector<Slot> slots;
        if (header_ && header_->slots.size() >= 2) {
            const size_t levels = header_->slots.size() - 1;
            for (size_t i = 0; i < header_->slots.size(); ++i) {
                const auto [offset, size] = header_->slots[i];
                Slot s{i < levels ? "METADATA/level" + std::to_string(i) + ".parquet"
                                  : "COLLECTION.json",
                       offset, size};
                if (offset > file_.size() || file_.size() - offset < size) {
                    sink_.error("zip.header-slot", "TACO_HEADER slot " + std::to_string(i),
                                s.name + " at " + range(offset, size) + " lies outside the file (" +
                                    std::to_string(file_.size()) + " bytes)");
                    return {};
                }
                if (dir_) {
                    const ZipEntry* e = dir_->find(s.name);
                    if (!e) {
                        sink_.error(
                            "zip.header-slot", "TACO_HEADER slot " + std::to_string(i),
                            "points at " + s.name + ", but the ZIP has no entry of that name");
                    } else if (e->data_offset != offset || e->uncompressed_size != size) {
                        sink_.error("zip.header-slot", "TACO_HEADER slot " + std::to_string(i),
                                    "says " + s.name + " is at " + range(offset, size) +
                                        ", but its ZIP entry is at " +
                                        range(e->data_offset, e->uncompressed_size));
                    }
                }
                slots.push_back(std::move(s));
            }
            if (dir_) {
                const std::string extra = "METADATA/level" + std::to_string(levels) + ".parquet";
                if (dir_->find(extra)) {
                    sink_.error("zip.header-slot", "TACO_HEADER",
                                "the ZIP holds " + extra + ", which the header does not list");
                }
            }
            return slots;
        }
        if (!dir_) return {};
        for (size_t i = 0;; ++i) {
            const ZipEntry* e = dir_->find("METADATA/level" + std::to_string(i) + ".parquet");
            if (!e) break;
            slots.push_back({std::string(e->name), e->data_offset, e->uncompressed_size});
        }
        const ZipEntry* c = dir_->find("COLLECTION.json");
        if (slots.empty() || !c) {
            sink_.error(
                "zip.directory", "central directory",
                "no METADATA/level0.parquet or COLLECTION.json entry; this is not a TACO ZIP");
            return {};
        }
        slots.push_back({"COLLECTION.json", c->data_offset, c->uncompressed_size});
        return slots;
    }

    bool load_levels(const std::vector<Slot>& levels) {
        for (size_t i = 0; i < levels.size(); ++i) {
            const std::optional<std::string> bytes = read(levels[i]);
            if (!bytes) break;
            auto mem = std::make_unique<io::MemFd>("taco-validate");
            io::pwrite_all(mem->fd(), 0, bytes->data(), bytes->size(), "memfd");
            LevelRows L;
            L.name = levels[i].name;
            L.parquet = mem->proc_path();
            level_bytes_.push_back(std::move(mem));
            const bool ok = load_level(tables_, L, i);
            tables_.levels.push_back(std::move(L));
            if (!ok) break;
        }
        return !tables_.levels.empty() && tables_.levels[0].rows;
    }

    std::string expected_entry(const LevelRows& L, size_t r) const {
        return "DATA/" + L.paths[r] + (L.is_folder(r) ? "/__meta__" : "");
    }

    // The entry whose data starts at `offset`, or nullptr.
    const ZipEntry* entry_at(uint64_t offset) {
        if (by_offset_.empty()) {
            for (size_t i = 0; i < dir_->size(); ++i)
                by_offset_.emplace((*dir_)[i].data_offset, static_cast<uint32_t>(i));
        }
        const auto it = by_offset_.find(offset);
        return it == by_offset_.end() ? nullptr : &(*dir_)[it->second];
    }

    void mark(const ZipEntry* e) { referenced_[static_cast<size_t>(e - &(*dir_)[0])] = true; }

    // One (offset, size) pair against the directory. `expected` is the entry name the row's
    // position in the tree implies.
    void check_pair(const std::string& where, const std::string& scope, const std::string& expected,
                    std::optional<int64_t> offset, std::optional<int64_t> size) {
        const ZipEntry* want = dir_->find(expected);
        if (want) mark(want);
        const std::string should = want ? "; expected '" + expected + "' at " +
                                              range(want->data_offset, want->uncompressed_size)
                                        : "; the ZIP has no entry '" + expected + "'";
        if (!offset || !size) {
            sink_.error("zip.offset", where, "internal:offset or internal:size is null" + should,
                        scope);
            return;
        }
        const ZipEntry* e = *offset >= 0 ? entry_at(static_cast<uint64_t>(*offset)) : nullptr;
        if (!e) {
            sink_.error("zip.offset-mismatch", where,
                        "internal:offset/size " + range(*offset, *size) +
                            " do not point at the data of any ZIP entry" + should,
                        scope);
        } else if (e->uncompressed_size != static_cast<uint64_t>(*size) || e->name != expected) {
            sink_.error("zip.offset-mismatch", where,
                        "internal:offset/size " + range(*offset, *size) + " point at ZIP entry '" +
                            std::string(e->name) + "' " +
                            range(e->data_offset, e->uncompressed_size) + should,
                        scope);
        } else if (!want) {
            sink_.error("zip.missing-entry", where, "no ZIP entry '" + expected + "'", scope);
        }
    }

    void check_row_offsets() {
        referenced_.assign(dir_->size(), false);
        for (const char* fixed : {"TACO_HEADER", "COLLECTION.json"})
            if (const ZipEntry* e = dir_->find(fixed)) mark(e);
        for (const LevelRows& L : tables_.levels) {
            if (const ZipEntry* e = dir_->find(L.name)) mark(e);
            if (!L.rows || !L.offset || !L.size) continue;
            for (size_t r = 0; r < L.size_rows(); ++r) {
                auto get = [&](size_t col) -> std::optional<int64_t> {
                    if (L.rows->is_null(r, col)) return std::nullopt;
                    return L.rows->get_int(r, col);
                };
                check_pair(L.where(r), L.name, expected_entry(L, r), get(*L.offset), get(*L.size));
            }
        }
    }

    // Every FOLDER's __meta__ is read from the entry its tree position names (not from the
    // level's offsets, which may be the very thing that is wrong).
    void check_metas() {
        std::vector<MetaFile> metas;
        for (size_t d = 0; d < tables_.levels.size(); ++d) {
            const LevelRows& L = tables_.levels[d];
            if (!L.rows) break;
            for (size_t r = 0; r < L.size_rows(); ++r) {
                if (!L.is_folder(r)) continue;
                const std::string name = expected_entry(L, r);
                if (!dir_->find(name)) {
                    sink_.error("zip.missing-entry", L.where(r), "no ZIP entry '" + name + "'",
                                L.name);
                    continue;
                }
                metas.push_back({d, r, name, {}});
            }
        }
        auto child_check = [this](const MetaFile& m, size_t meta_row, std::optional<size_t>,
                                  std::string_view id, std::string_view type,
                                  std::optional<int64_t> offset, std::optional<int64_t> size) {
            const std::string path = tables_.levels[m.level].paths[m.row] + "/" + std::string(id);
            const std::string expected = "DATA/" + path + (type == "FOLDER" ? "/__meta__" : "");
            check_pair(m.name + " row " + std::to_string(meta_row) + " (" + path + ")", "__meta__",
                       expected, offset, size);
        };
        // memfds are opened one batch at a time: a dataset may have far more folders than a
        // process may hold descriptors.
        constexpr size_t kBatch = 256;
        for (size_t b = 0; b < metas.size(); b += kBatch) {
            std::vector<MetaFile> batch(metas.begin() + b,
                                        metas.begin() + std::min(metas.size(), b + kBatch));
            std::vector<std::unique_ptr<io::MemFd>> held;
            std::vector<MetaFile> readable;
            for (MetaFile& m : batch) {
                const ZipEntry* e = dir_->find(m.name);
                const auto bytes = read({m.name, e->data_offset, e->uncompressed_size});
                if (!bytes) continue;
                auto mem = std::make_unique<io::MemFd>("taco-validate-meta");
                io::pwrite_all(mem->fd(), 0, bytes->data(), bytes->size(), "memfd");
                m.parquet = mem->proc_path();
                held.push_back(std::move(mem));
                readable.push_back(std::move(m));
            }
            check_meta_files(tables_, readable, child_check);
        }
    }

    void check_unreferenced() {
        for (size_t i = 0; i < dir_->size(); ++i) {
            if (referenced_[i]) continue;
            sink_.warning("zip.unreferenced-entry", std::string((*dir_)[i].name),
                          "no level table or __meta__ points at this entry", "zip.entries");
        }
    }

    std::filesystem::path path_;
    std::string name_;
    FindingSink& sink_;
    const ValidateOptions& options_;
    io::File file_;
    TableChecks tables_;
    std::optional<TacoHeader> header_;
    uint32_t payload_crc_ = 0;
    std::optional<ZipDirectory> dir_;
    std::unordered_map<uint64_t, uint32_t> by_offset_;
    std::vector<bool> referenced_;
    std::vector<std::unique_ptr<io::MemFd>> level_bytes_;
};

}  // namespace

void validate_zip(const std::filesystem::path& path, FindingSink& sink, metadata::DuckSession& db,
                  const ValidateOptions& options) {
    ZipValidator(path, sink, db, options).run();
}

}  // namespace taco::format
