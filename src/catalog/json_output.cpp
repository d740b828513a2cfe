#include "catalog/json_output.hpp"

#include <fstream>

#include "format/overwrite_guard.hpp"
#include "io/staged_output.hpp"
#include "taco/errors.hpp"

namespace fs = std::filesystem;

namespace taco::catalog {

void write_document(const fs::path& target, const std::string& text, bool overwrite,
                    const std::vector<fs::path>& sources, std::string_view who) {
    if (fs::is_directory(target))
        throw IoError("refusing to write " + target.string() + ": it is a directory");
    if (overwrite) format::check_replaceable_document(target, sources, who);
    io::StagedOutput staged(target, overwrite);
    {
        std::ofstream f(staged.staging(), std::ios::binary);
        f << text;
        f.close();
        if (!f) throw IoError("cannot write " + target.string());
    }
    staged.commit();
}

void write_json_file(const fs::path& target, const Json& doc, bool overwrite,
                     const std::vector<fs::path>& sources, std::string_view who) {
    write_document(target, doc.dump(2) + "\n", overwrite, sources, who);
}

}  // namespace taco::catalog
