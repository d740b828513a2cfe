// UTF-8 well-formedness (RFC 3629: no overlongs, no surrogates, nothing past U+10FFFF). Text in
// Parquet STRING columns, ZIP names and COLLECTION.json must pass it; readers reject the rest.
#pragma once

#include <string>
#include <string_view>

namespace taco::model {

bool is_valid_utf8(std::string_view s);

// A..Z lowered; every other byte, UTF-8 sequences included, unchanged. Python's str.lower()
// also lowers non-ASCII letters; where the reference lower-cases text (taco:field_schema types)
// tacocore matches it for ASCII only (docs/FORMAT-DECISIONS.md).
std::string ascii_lower(std::string_view s);

}  // namespace taco::model
