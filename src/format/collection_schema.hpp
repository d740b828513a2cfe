// `taco:pit_schema` and `taco:field_schema` of a COLLECTION.json, parsed for readers with the
// checks tacoreader's PITSchema applies (REFERENCE-API §A7), and everything a reader needs from
// the document in one step.
#pragma once

#include <string>
#include <vector>

#include "format/collection_json.hpp"
#include "taco/dataset.hpp"

namespace taco::format {

/// Parses `taco:pit_schema`. SchemaError naming `source` and the bad part when: root.type is not
/// FILE/FOLDER, n is not a non-negative integer, a hierarchy key is not a number, a pattern lacks
/// `type` or `id`, those arrays are empty or differ in length, or a child type is invalid.
PitSchema parse_pit_schema(const OrderedJson& pit, const std::string& source);

/// Parses `taco:field_schema` ({"level0": [[name, type, description], ...], ...}). FormatError
/// naming `source` when the shape is wrong.
std::vector<LevelFields> parse_field_schema(const OrderedJson& fields, const std::string& source);

/// The parts of COLLECTION.json a reader keeps.
struct CollectionDocument {
    std::string text;  // the file, byte for byte
    CollectionInfo info;
    PitSchema pit;
    std::vector<LevelFields> fields;  // empty when the document has no taco:field_schema
};

/// Parses COLLECTION.json text. `source` names it in messages (e.g. "x.tacozip: COLLECTION.json").
/// FormatError for malformed JSON (with line and column), a missing `id` or `taco:pit_schema`,
/// or mistyped fields; SchemaError for an invalid pit schema.
CollectionDocument read_collection_document(std::string text, const std::string& source);

}  // namespace taco::format
