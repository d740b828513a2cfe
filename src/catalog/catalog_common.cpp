#include "catalog/catalog_common.hpp"

#include <algorithm>
#include <cctype>

#include "taco/remote.hpp"

namespace fs = std::filesystem;

namespace taco::catalog {

std::vector<SourceFile> source_files(const Dataset& dataset) {
    std::vector<SourceFile> out;
    for (const fs::path& p : dataset.sources()) {
        SourceFile s;
        s.location = p.string();
        s.remote = is_remote_location(s.location);
        std::string trimmed = s.location;
        while (trimmed.size() > 1 && trimmed.back() == '/') trimmed.pop_back();
        s.folder = s.remote ? dataset.format() == ContainerFormat::Folder : fs::is_directory(p);
        const size_t slash = trimmed.find_last_of('/');
        s.name = slash == std::string::npos ? trimmed : trimmed.substr(slash + 1);
        out.push_back(std::move(s));
    }
    return out;
}

std::vector<ColumnType> stored_columns(const Dataset& dataset, size_t d) {
    std::vector<ColumnType> cols = dataset.level(d).columns();
    std::erase_if(cols, [](const ColumnType& c) {
        return c.name == "internal:gdal_vsi" || c.name == "internal:source_path";
    });
    return cols;
}

std::string field_description(const Dataset& dataset, size_t d, const std::string& column) {
    const std::string key = "level" + std::to_string(d);
    for (const LevelFields& lf : dataset.field_schema()) {
        if (lf.level != key) continue;
        for (const FieldInfo& f : lf.fields)
            if (f.name == column) return f.description;
    }
    return "";
}

bool has_geometry(const Dataset& dataset) {
    for (size_t d = 0; d < dataset.level_count(); ++d)
        for (const ColumnType& c : stored_columns(dataset, d))
            for (const char* g :
                 {"stac:geometry", "istac:geometry", "stac:centroid", "istac:centroid"})
                if (c.name == g) return true;
    return false;
}

std::optional<std::string> spdx_url(const std::string& license) {
    if (license.empty() || license.size() > 64) return std::nullopt;
    const bool id_like = std::all_of(license.begin(), license.end(), [](unsigned char c) {
        return std::isalnum(c) || c == '-' || c == '.' || c == '+';
    });
    std::string lower;
    for (unsigned char c : license) lower += static_cast<char>(std::tolower(c));
    // Words the toolbox and users write where no SPDX license applies.
    for (const char* word : {"proprietary", "various", "other", "unknown", "none", "custom"})
        if (lower == word) return std::nullopt;
    if (!id_like) return std::nullopt;
    return "https://spdx.org/licenses/" + license + ".html";
}

}  // namespace taco::catalog
