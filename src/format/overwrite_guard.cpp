#include "format/overwrite_guard.hpp"

#include <sys/stat.h>

#include <system_error>

#include "format/taco_header.hpp"
#include "io/file.hpp"
#include "taco/errors.hpp"

namespace fs = std::filesystem;

namespace taco::format {
namespace {

// What a writer may replace, and how its refusals say so.
struct ReplaceRule {
    bool folders;          // a TACO FOLDER dataset may be replaced too
    std::string_view who;  // "--overwrite", "tacozip.create"
};

[[noreturn]] void refuse(const fs::path& target, const std::string& what, const ReplaceRule& rule) {
    const std::string replaces =
        rule.folders ? "an existing TACO dataset (a .tacozip whose first entry is TACO_HEADER, or "
                       "a directory with COLLECTION.json and METADATA/) or an empty file"
                     : "an existing TACO ZIP (a file whose first entry is TACO_HEADER) or an "
                       "empty file";
    throw IoError("refusing to overwrite " + target.string() + ": " + what + "; " +
                  std::string(rule.who) + " only replaces " + replaces);
}

bool is_taco_zip(const fs::path& p) {
    try {
        io::File f = io::File::open_read(p);
        if (f.size() < kTacoHeaderPayloadOffset) return false;
        char head[kTacoHeaderPayloadOffset];
        f.read_at(0, head, sizeof head);
        const std::string_view h(head, sizeof head);
        return h.substr(0, 4) == std::string_view("PK\x03\x04", 4) &&
               h.substr(30, kTacoHeaderEntryName.size()) == kTacoHeaderEntryName;
    } catch (const Error&) {
        return false;
    }
}

bool is_taco_folder(const fs::path& p) {
    std::error_code ec;
    return fs::symlink_status(p / "COLLECTION.json", ec).type() == fs::file_type::regular &&
           fs::symlink_status(p / "METADATA", ec).type() == fs::file_type::directory;
}

// True if `inner` is `outer` or lies below it (both absolute and normalised, symlinks resolved
// where they exist).
bool within(const fs::path& inner, const fs::path& outer) {
    auto i = inner.begin(), o = outer.begin();
    for (; o != outer.end(); ++o, ++i) {
        if (o->empty()) continue;  // a trailing separator
        if (i == inner.end() || *i != *o) return false;
    }
    return true;
}

fs::path resolved(const fs::path& p) {
    std::error_code ec;
    fs::path r = fs::weakly_canonical(fs::absolute(p), ec);
    return ec ? fs::absolute(p).lexically_normal() : r;
}

void check_against(const fs::path& target, const std::vector<fs::path>& inputs,
                   const ReplaceRule& rule) {
    std::error_code ec;
    const fs::file_status st = fs::symlink_status(target, ec);
    if (st.type() == fs::file_type::not_found) return;
    switch (st.type()) {
        case fs::file_type::regular:
            // An empty file holds nothing to lose: tempfile.mkstemp(suffix=".tacozip") makes
            // one for the writer to fill, and tacozip replaces it.
            if (!is_taco_zip(target) && fs::file_size(target, ec) != 0)
                refuse(target, "it is a file that is not a TACO ZIP", rule);
            break;
        case fs::file_type::directory:
            if (!rule.folders) {
                refuse(target, "it is a directory", rule);
            } else if (!is_taco_folder(target)) {
                refuse(target, "it is a directory without COLLECTION.json and METADATA/", rule);
            }
            break;
        case fs::file_type::symlink:
            refuse(target, "it is a symbolic link", rule);
        default:
            refuse(target, "it is not a regular file or directory (a device, FIFO or socket)",
                   rule);
    }
    const fs::path real_target = resolved(target);
    for (const fs::path& input : inputs) {
        if (within(resolved(input), real_target)) {
            refuse(target, "it contains an input of the new dataset (" + input.string() + ")",
                   rule);
        }
    }
}

}  // namespace

void check_replaceable_document(const fs::path& target, const std::vector<fs::path>& sources,
                                std::string_view who) {
    std::error_code ec;
    const fs::file_status st = fs::symlink_status(target, ec);
    if (st.type() == fs::file_type::not_found) return;
    auto refuse_document = [&](const std::string& what) {
        throw IoError("refusing to overwrite " + target.string() + ": " + what + "; " +
                      std::string(who) +
                      " only replaces a regular file that is not part of a TACO dataset");
    };
    if (st.type() == fs::file_type::directory) refuse_document("it is a directory");
    if (st.type() == fs::file_type::symlink) refuse_document("it is a symbolic link");
    if (st.type() != fs::file_type::regular)
        refuse_document("it is not a regular file (a device, FIFO or socket)");
    if (is_taco_zip(target)) refuse_document("it is a TACO ZIP");
    const fs::path real_target = resolved(target);
    for (const fs::path& source : sources) {
        if (within(real_target, resolved(source)))
            refuse_document("it is part of the dataset being described (" + source.string() + ")");
    }
    // Inside any FOLDER dataset or collection index: its files are tables and samples.
    for (fs::path dir = real_target.parent_path(); !dir.empty(); dir = dir.parent_path()) {
        if (is_taco_folder(dir) || dir.filename() == ".tacocat")
            refuse_document("it is inside the TACO dataset " + dir.string());
        if (dir == dir.root_path()) break;
    }
}

void check_replaceable(const fs::path& target, const std::vector<fs::path>& inputs) {
    check_against(target, inputs, {true, "--overwrite"});
}

void check_replaceable_zip(const fs::path& target, const std::vector<fs::path>& inputs,
                           std::string_view who) {
    check_against(target, inputs, {false, who});
}

}  // namespace taco::format
