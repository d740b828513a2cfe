// Dataset cards (issue 16): a README-style page about a dataset, from its COLLECTION.json and
// level tables, as Markdown or as one self-contained HTML file (no script, no network: the extent
// map is an inline SVG).
#pragma once

#include <string>

#include "taco/dataset.hpp"

namespace taco {

enum class CardFormat { Markdown, Html };

/// "md"/"markdown" or "html"; QueryError naming the valid values otherwise.
CardFormat parse_card_format(const std::string& name);

struct CardOptions {
    /// The path the code snippets load; empty = the dataset's own path.
    std::string dataset_example_path;
};

/// Title, description, licenses, providers and curators, keywords and tasks, the extent (values
/// and an SVG map), sample counts (per value of a level-0 `split` column when there is one), the
/// PIT tree, one field table per level (name, type, description), code snippets (Python, CLI).
std::string dataset_card(const Dataset& dataset, CardFormat format,
                         const CardOptions& options = {});

}  // namespace taco
