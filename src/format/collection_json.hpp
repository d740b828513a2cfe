// COLLECTION.json: building it from a Taco (FORMAT.md §5) and serializing it exactly as the
// reference does (Python json.dump(indent=4, ensure_ascii=False), no trailing newline).
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "metadata/level_tables.hpp"
#include "taco/collection.hpp"

namespace taco::format {

using OrderedJson = nlohmann::ordered_json;

/// `taco:pit_schema` from the level tables (FORMAT.md §5.4).
OrderedJson pit_schema_json(const std::vector<metadata::LevelTable>& levels);
/// `taco:field_schema`: per level [name, arrow type, description] of the consolidated columns,
/// without internal:offset/size (identical for ZIP and FOLDER, FORMAT.md §5.5). `descriptions`
/// (column -> text) win over the built-in texts.
OrderedJson field_schema_json(const std::vector<metadata::LevelTable>& levels,
                              const std::map<std::string, std::string>& descriptions);
/// The whole document, keys in the reference order.
OrderedJson collection_json(const Taco& taco, const std::vector<metadata::LevelTable>& levels);
/// Python-compatible text: indent 4, ": " separators, raw UTF-8, no final newline.
/// Numbers that are not finite are written as Python writes them: NaN, Infinity, -Infinity.
std::string dump_python_style(const OrderedJson& doc, bool ensure_ascii = false);
/// One line, as nlohmann's dump(), but floats as Python's repr and NaN / ±Infinity kept (a
/// dump() would write them as null).
std::string dump_compact(const OrderedJson& value);

}  // namespace taco::format
