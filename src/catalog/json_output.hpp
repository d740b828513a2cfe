// One JSON document written as a new file: staged beside the target and renamed, so a failure
// leaves nothing and an existing file is replaced only when asked (DESIGN.md §5).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace taco::catalog {

using Json = nlohmann::ordered_json;

/// Writes `text` as the document `target` about a dataset (a Croissant or DataCite record, a
/// card). IoError when `target` exists and !overwrite, or when it is a directory; with
/// overwrite, also when it is part of a TACO dataset, `sources` (the described dataset's files)
/// included (format::check_replaceable_document; `who` names the writer).
void write_document(const std::filesystem::path& target, const std::string& text, bool overwrite,
                    const std::vector<std::filesystem::path>& sources, std::string_view who);

/// write_document of `doc` as indented JSON.
void write_json_file(const std::filesystem::path& target, const Json& doc, bool overwrite,
                     const std::vector<std::filesystem::path>& sources, std::string_view who);

}  // namespace taco::catalog
