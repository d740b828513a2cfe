// Descriptions of the extension columns for taco:field_schema, as tacotoolbox writes them.
#pragma once

#include <string>

namespace taco::ext {

/// The reference's description of an extension column (stac:*, istac:*, scaling:*, split), or
/// nullptr for any other name.
const std::string* column_description(const std::string& name);

}  // namespace taco::ext
