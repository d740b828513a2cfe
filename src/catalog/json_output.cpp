#include "catalog/json_output.hpp"

#include <fstream>

#include "io/staged_output.hpp"
#include "taco/errors.hpp"

namespace fs = std::filesystem;

namespace taco::catalog {

void write_json_file(const fs::path& target, const Json& doc, bool overwrite) {
    if (fs::is_directory(target))
        throw IoError("refusing to write " + target.string() + ": it is a directory");
    io::StagedOutput staged(target, overwrite);
    {
        std::ofstream f(staged.staging(), std::ios::binary);
        f << doc.dump(2) << "\n";
        f.close();
        if (!f) throw IoError("cannot write " + target.string());
    }
    staged.commit();
}

}  // namespace taco::catalog
