// TACO: the root tortilla plus COLLECTION metadata (spec §5.3, §5.5.2; FORMAT.md §5, §8.1).
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "taco/tortilla.hpp"

namespace taco {

/// A provider or curator. Two JSON shapes exist and both are accepted:
///  - classic (spec, toolbox < 0.22): {name, organization, email, role}
///  - provider (toolbox >= 0.22):     {name, roles, url, links}
/// The shape is chosen by the fields set: any of roles/url/links selects the provider shape, and
/// mixing fields of both shapes is a SchemaError. A contact whose only fields are `name` and
/// roles/url/links given as null (tacotoolbox's `Provider(name=...)`) keeps the provider shape.
struct Contact {
    std::optional<std::string> name;
    std::optional<std::string> organization;
    std::optional<std::string> email;
    std::optional<std::string> role;
    std::optional<std::vector<std::string>> roles;
    std::optional<std::string> url;
    std::optional<std::vector<std::map<std::string, std::string>>> links;
    /// The document named roles, url or links, even as null.
    bool names_provider_keys = false;

    bool uses_provider_shape() const {
        return roles || url || links || (names_provider_keys && !organization && !email && !role);
    }
};

/// Spatial [west, south, east, north] in WGS84 degrees (west > east crosses the antimeridian) and
/// temporal [start, end] ISO-8601 strings.
struct Extent {
    std::array<double, 4> spatial{-180.0, -90.0, 180.0, 90.0};
    std::optional<std::array<std::string, 2>> temporal;
};

struct CollectionInfo {
    std::string id;
    std::string dataset_version;
    std::string description;
    std::vector<std::string> licenses;
    std::vector<Contact> providers;
    std::vector<std::string> tasks;
    std::string taco_version = "2.0.0";
    std::optional<std::string> title;
    std::optional<std::vector<Contact>> curators;
    std::optional<std::vector<std::string>> keywords;
    /// Given by the user, or computed from STAC/ISTAC centroids and times when absent.
    std::optional<Extent> extent;
    /// TACO-level extension keys, in order: key -> JSON text (an object, list, string, number...).
    std::vector<std::pair<std::string, std::string>> extensions;
    /// Column descriptions for `taco:field_schema` (column -> text), as the extensions that added
    /// the columns describe them (tacotoolbox's get_field_descriptions()). They win over the
    /// built-in texts; a column no level has is ignored.
    std::map<std::string, std::string> field_descriptions;
};

/// The ML task names COLLECTION `tasks` accepts.
const std::vector<std::string>& known_tasks();

class Taco {
  public:
    /// Validates the collection fields and the PIT rules over the whole tree, and computes the
    /// extent when none is given. Throws SchemaError or PitError.
    Taco(Tortilla root, CollectionInfo info);

    const Tortilla& root() const { return root_; }
    const CollectionInfo& info() const { return info_; }
    /// The extent written to COLLECTION.json (the user's, or the computed one).
    const Extent& extent() const { return extent_; }
    /// Number of metadata levels (1..6).
    size_t levels() const { return root_.depth(); }

  private:
    Tortilla root_;
    CollectionInfo info_;
    Extent extent_;
};

/// Validates only the collection fields (used by Taco and by `taco create --collection`).
void validate_collection(const CollectionInfo& info);

}  // namespace taco
