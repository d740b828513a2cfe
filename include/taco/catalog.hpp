// Catalog export (issue 16): a dataset as a static STAC catalog (one Collection, one Item per
// level-0 sample, assets pointing at GDAL-readable `/vsisubfile/` or file paths).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "taco/dataset.hpp"

namespace taco {

struct CatalogResult {
    std::filesystem::path path;  // the collection.json written
    size_t items = 0;
    std::vector<std::string> warnings;  // e.g. no geometry or time column: fields left out
};

/// Writes `out_dir/collection.json` and `out_dir/items/<id>.json` (STAC 1.0.0) for the rows of
/// `view` (a level-0 view). Geometry from `stac:geometry` / `istac:geometry` (WKB), time from
/// `stac:time_start`/`time_end` (or istac:); without them the items have a null geometry / null
/// datetime and a warning says so. The directory is staged and renamed; IoError when it exists
/// (unless overwrite, which replaces only an earlier STAC export: a directory holding a
/// collection.json) and QueryError when the view keeps no sample.
CatalogResult export_stac(const Dataset& view, const std::filesystem::path& out_dir,
                          bool overwrite = false);

}  // namespace taco

namespace taco {

struct CroissantOptions {
    /// SHA-256 of each distributed file (the dataset's ZIP(s), a FOLDER's level Parquet files):
    /// Croissant asks for a checksum on every file that is not inside another. Auto computes it
    /// for local datasets and leaves it out for remote ones (it would download everything).
    enum class Checksum { Auto, Yes, No } checksum = Checksum::Auto;
    /// Where the dataset will be published (its URL or directory, without the file name): the
    /// files' contentUrl become base_url + file name. Empty: local paths relative to the JSON
    /// file (so mlcroissant finds them), or the dataset's own URL when remote.
    std::string base_url;
    /// Replace an existing output file.
    bool overwrite = false;
};

/// Writes `out_file`: Croissant 1.0 JSON-LD of the whole dataset (a view's filter does not
/// apply: Croissant describes files). distribution: the dataset file(s) and, for each level,
/// its Parquet table (a FileObject inside the ZIP, a file of a FOLDER, a FileSet across the
/// parts of a concatenation or collection); one RecordSet per level with one Field per stored
/// column, typed from the level's Parquet schema (lists as `repeated`) and described by
/// `taco:field_schema`. Metadata from COLLECTION.json (name, description, licenses, providers as
/// creators, keywords, version, temporal and spatial coverage). A warning for each thing left
/// out (no extent, no checksum). IoError when the file exists without overwrite.
CatalogResult export_croissant(const Dataset& dataset, const std::filesystem::path& out_file,
                               const CroissantOptions& options = {});

/// Writes `out_file`: DataCite Metadata Schema 4.5 JSON (the REST API's `attributes` shape) of
/// the dataset: creators from providers (curators become contributors), titles, descriptions,
/// rightsList from licenses (SPDX ids with their URI), subjects from keywords and tasks, dates
/// from the temporal extent (Collected), geoLocations from the spatial extent, version,
/// publisher (the first provider, or `publisher` when given), publicationYear (`year` when
/// given, else the current year), formats and sizes of the files. IoError when the file exists
/// without overwrite.
struct DataCiteOptions {
    std::string publisher;     // default: the first provider's name
    int publication_year = 0;  // default: the current UTC year
    std::string doi;           // optional; "10.xxxx/yyy"
    bool overwrite = false;
};
CatalogResult export_datacite(const Dataset& dataset, const std::filesystem::path& out_file,
                              const DataCiteOptions& options = {});

}  // namespace taco
