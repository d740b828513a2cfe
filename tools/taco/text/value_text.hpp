// One cell's text, as every read command prints it: JSON (machine), CSV and the aligned table.
//  - floats: shortest text that reads back to the same value (float32 as float32: 45.2);
//  - timestamps: ISO-8601 UTC ("2023-01-01T00:00:00Z"), microseconds only when non-zero;
//  - binary: lowercase hex; lists: JSON arrays; null: JSON null / empty CSV field / "null";
//  - decimals: their exact digits (a JSON number in JSON, nested ones included).
// Kept apart from output.cpp (which prints whole frames and runs commands) so the unit tests can
// hold the fast row writer (row_text.hpp) to exactly these bytes.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

#include "taco/value.hpp"

namespace taco::cli {

using Json = nlohmann::ordered_json;

/// One cell as a JSON tree. A decimal is a number only where a double holds it exactly (else its
/// text as a string): the tree cannot carry exact digits, so output goes through
/// append_value_json instead.
Json value_to_json(const Value& v);
/// Appends one cell as compact JSON text, as every command prints it: value_to_json's text,
/// except that a decimal, at any depth, is its exact digits as a JSON number (`2499.5`,
/// `18446744073709551615`), as DuckDB and PostgreSQL print them: one JSON type per column,
/// nothing rounded. Text that is not UTF-8 gets U+FFFD.
void append_value_json(std::string& out, const Value& v);
/// Text of one cell for tables and CSV (lists as JSON text, null as "null"). A float that is
/// not finite is NaN / Infinity / -Infinity at any depth (`[1.0,NaN]`): JSON's null is kept for
/// --json, where it has no other spelling, but here it would read as a missing value.
std::string value_to_text(const Value& v);

/// Shortest decimal that parses back to the same float or double; "NaN", "Infinity",
/// "-Infinity" for the values JSON has no number for.
std::string shortest_text(float v);
std::string shortest_text(double v);
/// A float32 as a JSON number: the double its shortest float text reads as (45.2f is 45.2, not
/// 45.200000762939453); NaN for NaN and the infinities, which JSON prints as null.
double float32_as_json_number(float v);
/// Bytes as lowercase hex.
std::string hex_text(std::string_view bytes);
/// Appends `s` as an RFC 4180 CSV field: quoted (inner quotes doubled) only when it holds a
/// comma, a quote or a line break.
void append_csv_field(std::string& out, std::string_view s);

}  // namespace taco::cli
