// What the catalog writers (Croissant, DataCite) share: where the dataset's files are, how a
// license id becomes a URL, and the providers as plain records.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "taco/dataset.hpp"

namespace taco::catalog {

/// One file or directory behind a dataset (Dataset::sources()).
struct SourceFile {
    std::string location;  // as given to load: a local path or a URL
    bool remote = false;
    bool folder = false;  // a FOLDER dataset (a directory), else a ZIP file
    std::string name;     // its last path component ("data.tacozip", "mydataset")
};

std::vector<SourceFile> source_files(const Dataset& dataset);

/// The columns of level `d` as its Parquet table stores them: the view's columns less those a
/// reader adds (internal:gdal_vsi, internal:source_path).
std::vector<ColumnType> stored_columns(const Dataset& dataset, size_t d);

/// `taco:field_schema` description of `column` at level `d` ("" when none).
std::string field_description(const Dataset& dataset, size_t d, const std::string& column);

/// Whether any level stores a geometry or centroid (stac:/istac:): without one, COLLECTION.json's
/// spatial extent is only the writer's global default and says nothing about the data.
bool has_geometry(const Dataset& dataset);

/// How to cite the dataset: the first entry of COLLECTION.json's `publications` (Publications
/// extension) that has a citation or a DOI, as its citation text followed by its DOI as a
/// https://doi.org/ URL (unless the text already holds the DOI), or the DOI URL alone; nullopt
/// when the collection has no publication.
std::optional<std::string> cite_as(const Dataset& dataset);

/// https://spdx.org/licenses/<id>.html for a license that reads as an SPDX id ("CC-BY-4.0"),
/// nullopt for free text ("proprietary", "see README").
std::optional<std::string> spdx_url(const std::string& license);

}  // namespace taco::catalog
