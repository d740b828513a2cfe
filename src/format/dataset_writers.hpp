// The two container writers behind taco::create. Both receive a fully validated plan and write
// into a staging path; create() owns the rename.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "format/create_session.hpp"
#include "io/cancel.hpp"
#include "metadata/duckdb_session.hpp"
#include "metadata/encoder_pool.hpp"
#include "metadata/level_tables.hpp"
#include "taco/writer.hpp"

namespace taco::format {

struct WritePlan {
    const Taco& taco;
    const CreateOptions& options;
    std::vector<metadata::LevelTable> levels;
    std::string collection_json;  // final COLLECTION.json bytes
    CreateProgress progress;      // totals filled in; *_done advanced by the writers

    void file_written(uint64_t bytes) {
        io::throw_if_cancelled("writing the dataset");
        progress.bytes_done += bytes;
        ++progress.files_done;
        if (options.progress) options.progress(progress);
    }
    metadata::ParquetOptions level_parquet() const {
        return {options.compression_level, options.row_group_size, options.level_codec};
    }
    // __meta__ files: zstd at the Arrow default level, as the reference writes them.
    static metadata::ParquetOptions meta_parquet() { return {1, 65536}; }
    // __meta__ tables are encoded on up to meta_threads() DuckDB connections at once.
    static unsigned meta_threads() { return metadata::encoder_threads(); }
};

/// Writes the ZIP container (FORMAT.md §2) to `path`; returns its size.
uint64_t write_zip_dataset(WritePlan& plan, PendingSession& db, const std::filesystem::path& path);
/// Writes the FOLDER container (FORMAT.md §3) as directory `path`; returns bytes written.
uint64_t write_folder_dataset(WritePlan& plan, PendingSession& db,
                              const std::filesystem::path& path);

}  // namespace taco::format
