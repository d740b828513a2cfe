// Container detection: the reference's rules (REFERENCE-API §A3) in order, with a clear error for
// every layout tacocore recognises but does not load here.
#include <algorithm>
#include <cctype>
#include <cstring>
#include <system_error>

#include "collection/collection_open.hpp"
#include "format/dataset_open.hpp"
#include "format/legacy_detect.hpp"
#include "format/taco_header.hpp"
#include "io/file.hpp"
#include "io/location.hpp"
#include "paths/dataset_names.hpp"
#include "taco/errors.hpp"

namespace fs = std::filesystem;

namespace taco::format {
namespace {

bool ends_with(const std::string& s, std::string_view suffix) {
    return s.size() >= suffix.size() &&
           s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

[[noreturn]] void legacy_v1(const std::string& path) {
    throw FormatError("Legacy TACO v1 format detected: " + path +
                      ": a legacy TACO v1 dataset (.taco / .tortilla / tacofoundation:). TACO 2 "
                      "validation does not apply to it: load() reads a v1 file read-only, and "
                      "`taco migrate FILE OUT.tacozip` rewrites it as TACO 2 (Hugging Face "
                      "`tacofoundation:` names are not fetched: download the .taco file first)");
}

[[noreturn]] void tacocat(const std::string& path, const std::string& what) {
    throw FormatError(path + ": " + what +
                      " (a TACOCAT index over several .tacozip files), not a single container; "
                      "open it with load()");
}

bool path_exists(const fs::path& p) {
    std::error_code ec;
    return fs::exists(p, ec);
}

// The first bytes of a local file, as many as exist up to `n`.
std::string head_bytes(const fs::path& p, size_t n) {
    io::File f = io::File::open_read(p);
    std::string out(static_cast<size_t>(std::min<uint64_t>(n, f.size())), '\0');
    if (!out.empty()) f.read_at(0, out.data(), out.size());
    return out;
}

}  // namespace

bool is_legacy_v1(const fs::path& path) {
    const std::string s = paths::without_trailing_slashes(path.string());
    if (ends_with(s, ".taco") || ends_with(s, ".tortilla") || s.rfind("tacofoundation:", 0) == 0)
        return true;
    std::error_code ec;
    if (!fs::is_regular_file(s, ec)) return false;
    try {
        const std::string head = head_bytes(s, 2);
        return head == "#y" || head == "WX";
    } catch (const Error&) {
        return false;  // unreadable: detection reports it
    }
}

std::string resolved_path(const fs::path& path) {
    std::error_code ec;
    fs::path p = fs::weakly_canonical(fs::absolute(path), ec);
    if (ec) p = fs::absolute(path).lexically_normal();
    return paths::without_trailing_slashes(p.string());
}

std::string sql_root(const fs::path& path,
                     std::vector<std::shared_ptr<const paths::PathAnchor>>& anchors) {
    paths::SqlPath root = paths::anchor_path(resolved_path(path));
    if (root.anchor) anchors.push_back(std::move(root.anchor));
    return std::move(root.text);
}

ContainerFormat detect_container(const fs::path& path) {
    const std::string s = paths::without_trailing_slashes(path.string());
    if (s.empty()) throw IoError("empty dataset path");
    if (ends_with(s, ".taco") || ends_with(s, ".tortilla") || s.rfind("tacofoundation:", 0) == 0) {
        legacy_v1(s);  // by name, before any existence check (is_legacy_v1 agrees)
    }
    if (ends_with(s, ".tacocat")) tacocat(s, "this is a .tacocat folder");
    if (paths::has_zip_suffix(s)) {
        if (!path_exists(s)) throw IoError("cannot open '" + s + "': no such file");
        return ContainerFormat::Zip;
    }
    std::error_code ec;
    const fs::file_status st = fs::status(s, ec);
    if (ec || !fs::exists(st)) throw IoError("cannot open '" + s + "': no such file or directory");
    if (fs::is_directory(st)) {
        if (path_exists(fs::path(s) / "COLLECTION.json")) return ContainerFormat::Folder;
        if (path_exists(fs::path(s) / ".tacocat" / "COLLECTION.json")) {
            tacocat(s, "this directory holds a .tacocat/ index");
        }
        if (path_exists(fs::path(s) / "__TACOCAT__"))
            tacocat(s, "this directory holds a legacy __TACOCAT__ file");
        throw FormatError(s +
                          ": COLLECTION.json not found; expected a FOLDER dataset (a directory "
                          "with COLLECTION.json, METADATA/ and DATA/), a .tacozip/.zip file, or a "
                          ".tacocat folder");
    }
    if (fs::path(s).filename() == "__TACOCAT__") tacocat(s, "this is a legacy __TACOCAT__ file");
    const std::string head = head_bytes(s, kTacoHeaderPayloadOffset);
    if (head.size() == kTacoHeaderPayloadOffset && head.compare(0, 4, "PK\x03\x04") == 0 &&
        head.compare(30, kTacoHeaderEntryName.size(), kTacoHeaderEntryName) == 0) {
        return ContainerFormat::Zip;  // a TACO ZIP under another name
    }
    if (head.size() >= 2 && (head.compare(0, 2, "#y") == 0 || head.compare(0, 2, "WX") == 0)) {
        legacy_v1(s);
    }
    throw FormatError(s +
                      ": not a TACO dataset; expected a .tacozip/.zip file or a directory with "
                      "COLLECTION.json");
}

OpenedDataset open_dataset(const fs::path& path, const std::string& base_path) {
    if (io::is_remote(path.string())) {
        if (auto layout = collection::remote_index_layout(path.string())) {
            return collection::open_remote_index(io::parse_location(path.string()), *layout,
                                                 base_path);
        }
        if (!base_path.empty()) {
            throw FormatError(path.string() +
                              ": base_path applies to a TACOCAT collection index "
                              "(.tacocat/ or __TACOCAT__) only");
        }
        return open_remote_dataset(path);
    }
    if (auto index = collection::find_index(path)) return collection::open_index(*index, base_path);
    if (!base_path.empty()) {
        throw FormatError(path.string() +
                          ": base_path applies to a TACOCAT collection index "
                          "(.tacocat/ or __TACOCAT__) only");
    }
    // "x.tacozip/" names the file x.tacozip, as tacoreader reads it (the kernel would refuse
    // the slash after a file name: ENOTDIR).
    const std::string local = paths::without_trailing_slashes(path.string());
    return detect_container(local) == ContainerFormat::Zip ? open_zip_dataset(local)
                                                           : open_folder_dataset(local);
}

}  // namespace taco::format
