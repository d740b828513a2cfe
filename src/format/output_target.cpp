#include "format/output_target.hpp"

#include "paths/dataset_names.hpp"
#include "taco/errors.hpp"

namespace fs = std::filesystem;

namespace taco::format {

OutputTarget resolve_output(const fs::path& requested, ContainerFormat format) {
    OutputTarget out;
    out.path = paths::without_trailing_slashes(requested.string());
    out.format = format != ContainerFormat::Auto   ? format
                 : paths::has_zip_suffix(out.path) ? ContainerFormat::Zip
                                                   : ContainerFormat::Folder;
    if (out.format == ContainerFormat::Folder) {
        if (paths::has_zip_suffix(out.path)) out.path.replace_extension();
        const std::string name = fs::absolute(out.path).lexically_normal().filename().string();
        if (name == ".tacocat" || name == "DATA" || name == "METADATA") {
            throw IoError("a FOLDER dataset cannot be named '" + name +
                          "' (reserved): " + requested.string());
        }
    }
    return out;
}

}  // namespace taco::format
