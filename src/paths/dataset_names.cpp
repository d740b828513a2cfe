#include "paths/dataset_names.hpp"

#include "model/utf8.hpp"

namespace taco::paths {

std::string without_trailing_slashes(std::string path) {
    while (path.size() > 1 && path.back() == '/') path.pop_back();
    return path;
}

bool has_zip_suffix(const std::filesystem::path& path) {
    const std::string ext = model::ascii_lower(path.extension().string());
    return ext == ".zip" || ext == ".tacozip";
}

}  // namespace taco::paths
