// GDAL opens a local file with a plain open(2): on a FIFO that waits for a writer forever, and a
// character device (/dev/zero) never ends. Every other reading path refuses non-regular files
// (io::File::open_read); a GDAL path is checked here first, through the wrappers tacocore and
// users put around local files.
#pragma once

#include <string>

namespace taco::raster {

/// IoError ("cannot read 'F': it is a FIFO, expected a regular file") when the local file that
/// GDAL would open for `gdal_path` exists and is neither a regular file nor a directory. The file
/// is found through `/vsisubfile/o_s,F` and the archive handlers (`/vsizip/`, `/vsitar/`,
/// `/vsigzip/`, `/vsi7z/`, `/vsirar/`, nested); other `/vsi.../` paths (network, memory) have no
/// local file and pass. Symbolic links are followed, as GDAL follows them.
void refuse_non_regular_local_file(const std::string& gdal_path);

}  // namespace taco::raster
