// Descriptions of the extension columns for taco:field_schema, as tacotoolbox writes them.
#pragma once

#include <string>
#include <vector>

#include "taco/value.hpp"

namespace taco::ext {

/// The reference's description of an extension column (stac:*, istac:*, scaling:*, split) when
/// `level` holds that extension's whole column set — what adding the extension object gives, and
/// where tacotoolbox writes its description. A column added on its own (a `stac:centroid` from a
/// dict or a metadata table) gets none, as in tacotoolbox. nullptr otherwise.
const std::string* column_description(const std::string& name,
                                      const std::vector<ColumnType>& level);

}  // namespace taco::ext
