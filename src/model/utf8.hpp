// UTF-8 well-formedness (RFC 3629: no overlongs, no surrogates, nothing past U+10FFFF). Text in
// Parquet STRING columns, ZIP names and COLLECTION.json must pass it; readers reject the rest.
#pragma once

#include <string_view>

namespace taco::model {

bool is_valid_utf8(std::string_view s);

}  // namespace taco::model
