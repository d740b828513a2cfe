#include "raster/local_file_check.hpp"

#include <sys/stat.h>

#include <string_view>

#include "io/file.hpp"
#include "taco/errors.hpp"

namespace taco::raster {
namespace {

bool starts_with(std::string_view s, std::string_view prefix) {
    return s.substr(0, prefix.size()) == prefix;
}

void check(const std::string& file, const struct stat& st) {
    if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
        throw IoError(io::not_regular_message(file, st.st_mode));
}

// The archive inside `/vsizip/archive/member`: the first component, walking from the root, that
// exists and is not a directory. Absent: GDAL reports the path itself.
void check_archive(std::string_view path) {
    for (size_t slash = path.find('/', 1);; slash = path.find('/', slash + 1)) {
        const std::string prefix(path.substr(0, slash));
        struct stat st {};
        if (::stat(prefix.c_str(), &st) != 0) return;
        if (!S_ISDIR(st.st_mode)) return check(prefix, st);
        if (slash == std::string_view::npos) return;
    }
}

}  // namespace

void refuse_non_regular_local_file(const std::string& gdal_path) {
    std::string_view p = gdal_path;
    static constexpr std::string_view kArchives[] = {"/vsizip/", "/vsitar/", "/vsigzip/", "/vsi7z/",
                                                     "/vsirar/"};
    for (;;) {
        if (starts_with(p, "/vsisubfile/")) {  // /vsisubfile/offset_size,file
            const size_t comma = p.find(',');
            if (comma == std::string_view::npos) return;  // malformed: GDAL reports it
            p.remove_prefix(comma + 1);
            continue;
        }
        bool archive = false;
        for (std::string_view handler : kArchives) {
            if (!starts_with(p, handler)) continue;
            p.remove_prefix(handler.size());  // what follows: the archive's path, then a member
            archive = true;
            break;
        }
        if (archive) {
            if (starts_with(p, "{")) {  // /vsizip/{archive}/member
                const size_t close = p.find('}');
                if (close == std::string_view::npos) return;
                p = p.substr(1, close - 1);
                continue;
            }
            if (starts_with(p, "/vsi")) continue;  // an archive inside another handler
            return check_archive(p);
        }
        if (starts_with(p, "/vsi")) return;  // network, memory, ...: no local file
        const std::string file(p);
        struct stat st {};
        if (::stat(file.c_str(), &st) == 0) check(file, st);
        return;
    }
}

}  // namespace taco::raster
