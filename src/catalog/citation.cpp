// How to cite a dataset, from COLLECTION.json's Publications extension (`publications`: a list
// of {doi, citation, summary}). TACO has no dataset-level DOI or citation field of its own, so
// the publications are the only citable thing a collection carries.
#include "catalog/catalog_common.hpp"
#include "catalog/json_output.hpp"

namespace taco::catalog {

std::optional<std::string> cite_as(const Dataset& dataset) {
    // The collection was validated when loaded; a value of an unexpected type is skipped
    // rather than trusted.
    const Json collection = Json::parse(dataset.collection_json(), nullptr, false);
    if (!collection.is_object()) return std::nullopt;
    const auto list = collection.find("publications");
    if (list == collection.end() || !list->is_array()) return std::nullopt;
    for (const Json& pub : *list) {
        if (!pub.is_object()) continue;
        const auto text = [&](const char* key) {
            const auto it = pub.find(key);
            return it != pub.end() && it->is_string() ? it->get<std::string>() : std::string();
        };
        const std::string citation = text("citation"), doi = text("doi");
        if (citation.empty() && doi.empty()) continue;
        const std::string doi_url = doi.empty() ? "" : "https://doi.org/" + doi;
        if (citation.empty()) return doi_url;
        // The DOI makes the citation resolvable; add it unless the text already carries it.
        if (!doi.empty() && citation.find(doi) == std::string::npos)
            return citation + " " + doi_url;
        return citation;
    }
    return std::nullopt;
}

}  // namespace taco::catalog
