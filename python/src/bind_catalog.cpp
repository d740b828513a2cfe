// Catalog exports (include/taco/catalog.hpp: STAC, Croissant, DataCite) for the Python package;
// the Python surface is tacocore/_catalog.py.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "py_common.hpp"
#include "py_paths.hpp"
#include "taco/catalog.hpp"
#include "taco/errors.hpp"

using namespace nb::literals;

namespace taco::py {
namespace {

nb::dict result_dict(const CatalogResult& r) {
    nb::dict d;
    d["path"] = fs_str(r.path);
    d["items"] = r.items;
    d["warnings"] = r.warnings;
    return d;
}

CroissantOptions::Checksum parse_checksum(const std::string& s) {
    if (s == "auto") return CroissantOptions::Checksum::Auto;
    if (s == "yes") return CroissantOptions::Checksum::Yes;
    if (s == "no") return CroissantOptions::Checksum::No;
    throw QueryError("checksum must be 'auto', 'yes' or 'no', not '" + s + "'");
}

}  // namespace

void bind_catalog(nb::module_& m) {
    m.def(
        "export_stac",
        [](const Dataset& view, const std::filesystem::path& out_dir, bool overwrite) {
            CatalogResult r;
            {
                GilRelease release;
                r = export_stac(view, out_dir, overwrite);
            }
            return result_dict(r);
        },
        "view"_a, "out_dir"_a, "overwrite"_a = false,
        "A STAC Collection and one Item per level-0 row of the view.");
    m.def(
        "export_croissant",
        [](const Dataset& ds, const std::filesystem::path& out_file, const std::string& checksum,
           const std::string& base_url, bool overwrite) {
            CroissantOptions o;
            o.checksum = parse_checksum(checksum);
            o.base_url = base_url;
            o.overwrite = overwrite;
            CatalogResult r;
            {
                GilRelease release;
                r = export_croissant(ds, out_file, o);
            }
            return result_dict(r);
        },
        "dataset"_a, "out_file"_a, "checksum"_a = "auto", "base_url"_a = "", "overwrite"_a = false,
        "Croissant 1.0 JSON-LD of the dataset's files and level tables.");
    m.def(
        "export_datacite",
        [](const Dataset& ds, const std::filesystem::path& out_file, const std::string& publisher,
           int year, const std::string& doi, bool overwrite) {
            DataCiteOptions o;
            o.publisher = publisher;
            o.publication_year = year;
            o.doi = doi;
            o.overwrite = overwrite;
            CatalogResult r;
            {
                GilRelease release;
                r = export_datacite(ds, out_file, o);
            }
            return result_dict(r);
        },
        "dataset"_a, "out_file"_a, "publisher"_a = "", "year"_a = 0, "doi"_a = "",
        "overwrite"_a = false, "DataCite 4.5 JSON from the collection fields.");
}

}  // namespace taco::py
