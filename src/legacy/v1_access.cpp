#include "legacy/v1_access.hpp"

#include <array>
#include <map>

#include "io/byte_source.hpp"
#include "io/file.hpp"
#include "io/little_endian.hpp"
#include "io/location.hpp"
#include "io/remote_source.hpp"
#include "io/staged_output.hpp"
#include "taco/errors.hpp"

namespace fs = std::filesystem;

namespace taco::legacy {
namespace {

// With overwrite, replacing is still limited to what this function writes: a file that is not a
// v1 file (a user's GeoTIFF given as output by mistake) is never deleted.
void refuse_to_replace_other_files(const fs::path& output) {
    std::error_code ec;
    if (!fs::exists(output, ec) || has_v1_magic(output.string())) return;
    throw IoError("refusing to replace " + output.string() +
                  ": it exists and is not a legacy v1 file (no '#y' or 'WX' magic); "
                  "remove it or choose another output");
}

}  // namespace

bool has_v1_magic(const std::string& path) {
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) return false;
    try {
        const auto source = io::open_local_source(path);
        if (source->size() < 2) return false;
        char magic[2];
        source->read_at(0, magic, 2, path);
        return (magic[0] == '#' && magic[1] == 'y') || (magic[0] == 'W' && magic[1] == 'X');
    } catch (const Error&) {
        return false;  // unreadable: whoever asked reports it in its own terms
    }
}

V1File V1File::open(const std::string& location) {
    V1File out;
    if (io::is_remote(location)) {
        const io::Location parsed = io::parse_location(location);
        out.source = io::RemoteSource::open(parsed);
        out.gdal_path = parsed.vsi;
        return out;
    }
    std::error_code ec;
    if (!fs::exists(location, ec)) throw IoError("cannot open '" + location + "': no such file");
    // Anything but a regular file (a directory, a FIFO) gets open_local_source's message, which
    // says what it is.
    out.source = io::open_local_source(location);
    out.gdal_path = location;
    return out;
}

StoredTortilla read_stored_tortilla(const V1File& file, uint64_t base, uint64_t length,
                                    const std::string& what, bool nested, bool with_footer) {
    const uint64_t size = file.source->size();
    if (base > size || (length != 0 && size - base < length)) {
        throw FormatError(what + ": a tortilla at " + io::byte_range_text(base, length) +
                          " lies outside the file (" + std::to_string(size) + " bytes)");
    }
    if (length == 0) length = size - base;
    StoredTortilla out;
    out.header = read_v1_header(*file.source, base, length, what, nested);
    if (with_footer) {
        out.footer = file.source->read_string(base + out.header.footer_offset,
                                              out.header.footer_length, what + ": FOOTER");
    }
    if (out.header.kind == V1Kind::Taco) {
        out.collection =
            file.source->read_string(base + out.header.collection_offset,
                                     out.header.collection_length, what + ": COLLECTION");
    }
    return out;
}

void write_tortilla_file(const fs::path& output, const std::vector<TortillaPiece>& pieces,
                         const std::string& footer, bool overwrite) {
    std::error_code ec;
    if (fs::is_directory(output, ec))
        throw IoError("refusing to write " + output.string() + ": it is a directory");
    if (overwrite) refuse_to_replace_other_files(output);
    io::StagedOutput staged(output, overwrite);  // removes its staging file if anything throws
    {
        uint64_t data_end = kV1HeaderSize;
        for (const auto& p : pieces) data_end += p.length;
        std::array<unsigned char, kV1HeaderSize> header{};
        header[0] = '#';
        header[1] = 'y';
        io::store_le64(&header[2], data_end);        // FOOTER offset
        io::store_le64(&header[10], footer.size());  // FOOTER length
        io::store_le64(&header[18], 1);              // data partitions
        io::File out = io::File::create_exclusive(staged.staging());
        out.write_all(header.data(), header.size());
        // One open source per file named, in the order the pieces come (usually one or a few).
        std::map<std::string, V1File> sources;
        for (const auto& p : pieces) {
            auto it = sources.find(p.source);
            if (it == sources.end()) it = sources.emplace(p.source, V1File::open(p.source)).first;
            it->second.source->copy_to_fd(p.offset, p.length, out.fd(),
                                          "sample bytes for " + output.string());
        }
        out.write_all(footer.data(), footer.size());
        out.close();
    }
    staged.commit();
}

}  // namespace taco::legacy
