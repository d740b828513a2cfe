// PIT (Position-Invariant Tree) rules over a whole sample tree (spec §5.4), and the per-level
// schemas they guarantee. Internal: used by Taco and by the writers.
#pragma once

#include <vector>

#include "taco/tortilla.hpp"

namespace taco::model {

/// Largest number of levels: the TACO_HEADER has 7 slots, one is COLLECTION.json.
constexpr size_t kMaxLevels = 6;

/// Enforces, at every depth:
///  - all non-padding root samples have the same type;
///  - PIT-1: every root sample's subtree has the same shape (child count, and the id and type of
///    each child by position), recursively. Padding samples (`__TACOPAD__N`) are placeholders: they
///    match any FILE at their position (see docs/FORMAT-DECISIONS.md);
///  - PIT-2: every tortilla at the same level has the same columns with compatible types;
///  - at most kMaxLevels levels.
/// Throws PitError naming the root sample, the depth, the position and what was expected.
void validate_pit(const Tortilla& root);

/// The schema of each level: level 0 is the root tortilla's (its order); level >= 1 unifies every
/// tortilla at that depth and sorts columns by code point, as the reference writer does.
std::vector<std::vector<ColumnType>> level_schemas(const Tortilla& root);

}  // namespace taco::model
