// A v1 file's FOOTERs as TACO 2.0 level tables (docs/FORMAT-DECISIONS.md "Legacy v1"): level 0
// is the top tortilla's FOOTER, level d+1 the FOOTERs of the nested tortillas (FOLDER samples)
// of level d, concatenated in row order. Offsets become absolute positions in the file, so the
// tables address sample bytes exactly as a ZIP's do (internal:offset/size).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "io/byte_source.hpp"
#include "io/memfd.hpp"
#include "legacy/v1_header.hpp"
#include "metadata/duckdb_session.hpp"
#include "taco/value.hpp"

namespace taco::legacy {

struct V1Tables {
    V1Header header;              // the top tortilla's
    std::string collection_text;  // TACO: the COLLECTION JSON as stored; empty for a tortilla
    std::vector<std::unique_ptr<io::MemFd>> levels;  // TACO 2.0 level tables, as Parquet
    std::vector<std::vector<ColumnType>> columns;    // their columns
    std::vector<uint64_t> rows;                      // their row counts
    /// Each FOLDER (nested tortilla), by the absolute offset of its bytes: its level and
    /// internal:current_id there (its children are the next level's rows with that parent).
    std::unordered_map<uint64_t, std::pair<size_t, int64_t>> folders;
};

/// Reads every FOOTER of the v1 file in `source` (`name` in messages) with `db` and writes the
/// level tables. FormatError naming the file (and the nested tortilla) for a bad header, a
/// FOOTER that is not readable Parquet or lacks tortilla:id / tortilla:file_format /
/// tortilla:offset / tortilla:length, or a sample whose bytes lie outside its DATA pile.
V1Tables read_v1_tables(metadata::DuckSession& db, const io::ByteSource& source,
                        const std::string& name);

}  // namespace taco::legacy
