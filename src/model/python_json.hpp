// Python's JSON dialect: its json module writes and reads NaN, Infinity and -Infinity as bare
// tokens, which RFC 8259 has no room for. tacotoolbox writes them into COLLECTION.json when a
// dataset-level value is not finite, and tacoreader reads them back; nlohmann::json refuses them.
// These two steps let a strict parser read such a document without losing the values: the
// tokens become marker strings before parsing, and the markers become doubles after.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace taco::model {

/// Replaces each NaN, Infinity and -Infinity token outside string literals of `text` by a
/// marker string literal. Returns false, leaving `text` as it was, when there is no such token,
/// or when the text already spells a marker (the parser then reports the token as it would).
bool mark_non_finite_tokens(std::string& text);

/// Turns the marker strings left by mark_non_finite_tokens back into NaN / ±infinity.
void restore_non_finite(nlohmann::ordered_json& doc);

/// Whether a number anywhere in `doc` is NaN or infinite (Python's tokens when written).
bool has_non_finite(const nlohmann::ordered_json& doc);

}  // namespace taco::model
