// One tortilla of a legacy v1 file as it is stored, and a Tortilla 0.5 file written from byte
// ranges: what tacoreader's `tacoreader.v1` API (tacocore.v1 in the Python package) works with.
// load_legacy() builds TACO 2.0 level tables from every FOOTER at once; this reads one FOOTER's
// bytes at a time, as tacoreader.v1 does, so its frames keep v1's own columns and offsets.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "io/byte_source.hpp"
#include "legacy/v1_header.hpp"

namespace taco::legacy {

/// A v1 file to read: a local path or any remote location tacocore reads (https, s3, gs, az, or
/// a GDAL /vsi... path). IoError naming it when it does not exist or cannot be reached.
struct V1File {
    std::shared_ptr<io::ByteSource> source;
    /// How GDAL names the file in `/vsisubfile/` paths: a local path as given, a remote one as
    /// its /vsi path (`https://h/x.taco` -> `/vsicurl/https://h/x.taco`).
    std::string gdal_path;

    static V1File open(const std::string& location);
};

/// True when `path` is a local regular file starting with the v1 magic ("#y" Tortilla 0.5, "WX"
/// TACO 0.2); false for anything else, an unreadable file included.
bool has_v1_magic(const std::string& path);

/// The tortilla spanning [base, base + length) of `file`, as stored. `length` 0 means up to the
/// end of the file (a TACO's tortilla ends where its COLLECTION starts). `nested`: the tortilla
/// is a sample of another one (its magic must be '#y'). `with_footer` false skips reading the
/// FOOTER (only the COLLECTION is wanted). The checks and errors of read_v1_header(); `what`
/// names it in them.
struct StoredTortilla {
    V1Header header;
    std::string footer;      // the FOOTER's Parquet bytes
    std::string collection;  // TACO 0.2, top level only: the COLLECTION JSON text as stored
};
StoredTortilla read_stored_tortilla(const V1File& file, uint64_t base, uint64_t length,
                                    const std::string& what, bool nested, bool with_footer = true);

/// One sample of a Tortilla being written: `length` bytes at `offset` of the file `source`.
struct TortillaPiece {
    std::string source;
    uint64_t offset = 0;
    uint64_t length = 0;
};

/// Writes the Tortilla 0.5 file `output`: its 200-byte header (magic '#y', FOOTER offset and
/// length, one data partition), the pieces one after another from byte 200 in the order given,
/// then `footer` (Parquet bytes whose offsets the caller computed the same way). Built under a
/// staging name and renamed into place (nothing is left on error). An existing `output` is an
/// IoError unless `overwrite`, and even then only a v1 file (magic '#y' or 'WX') is replaced.
void write_tortilla_file(const std::filesystem::path& output,
                         const std::vector<TortillaPiece>& pieces, const std::string& footer,
                         bool overwrite);

}  // namespace taco::legacy
