// COLLECTION.json -> CollectionInfo: for `taco create --collection FILE` and for readers.
// Accepts both provider shapes and unknown keys (kept as extensions, in order).
#pragma once

#include <cstdint>
#include <string>

#include "format/collection_json.hpp"
#include "taco/collection.hpp"

namespace taco::format {

/// Converts a parsed document; `source` names the file in error messages. Keys
/// taco:pit_schema / taco:field_schema are not part of CollectionInfo and are skipped. Missing
/// required keys are left empty when `require_core` is false (for partial --collection files).
CollectionInfo collection_info_from_json(const OrderedJson& doc, const std::string& source,
                                         bool require_core);

/// Deepest nesting of arrays and objects a JSON document may have (USER-GUIDE "Security").
inline constexpr size_t kMaxJsonDepth = 256;

/// Largest JSON document read (COLLECTION.json, `--collection`): real ones are a few KB to a few
/// MB; parsed, a document takes several times its text, so a huge one would exhaust memory.
inline constexpr uint64_t kMaxJsonBytes = uint64_t{64} << 20;

/// FormatError naming `source` when a JSON document of `size` bytes exceeds kMaxJsonBytes;
/// called before the bytes are read where the size is known first.
void check_json_size(uint64_t size, const std::string& source);

/// Parses JSON text (at most kMaxJsonBytes), with a FormatError naming `source` and the position on
/// malformed input, on nesting deeper than kMaxJsonDepth, and on a key repeated within one object.
OrderedJson parse_json_document(const std::string& text, const std::string& source);

/// SchemaError naming `source`, the key path and the literal when `text` holds an integer beyond
/// int64/uint64, which parsing would turn into a rounded double: for documents a user gives to
/// `create` (what is read from a dataset is taken as JSON readers take it, rounded).
void refuse_inexact_integers(const std::string& text, const std::string& source);

/// parse_json_document for a document a user gives to `create` (a --collection file, Taco
/// fields, an extension's value): also refuse_inexact_integers, so nothing is written rounded.
OrderedJson parse_user_json_document(const std::string& text, const std::string& source);

}  // namespace taco::format
