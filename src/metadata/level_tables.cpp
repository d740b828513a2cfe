#include "metadata/level_tables.hpp"

#include <map>

#include "model/pit.hpp"

namespace taco::metadata {

std::vector<LevelTable> build_level_tables(const Taco& taco) {
    auto schemas = model::level_schemas(taco.root());
    std::vector<LevelTable> levels(schemas.size());
    for (size_t d = 0; d < schemas.size(); ++d) levels[d].schema = std::move(schemas[d]);

    const auto& roots = taco.root().samples();
    levels[0].rows.reserve(roots.size());
    for (size_t i = 0; i < roots.size(); ++i) {
        levels[0].rows.push_back({&roots[i], static_cast<int64_t>(i), -1, {}});
    }
    for (size_t d = 1; d < levels.size(); ++d) {
        auto& parents = levels[d - 1].rows;
        auto& rows = levels[d].rows;
        for (size_t p = 0; p < parents.size(); ++p) {
            const Sample* parent = parents[p].sample;
            if (!parent->is_folder()) continue;
            parents[p].child_begin = static_cast<int64_t>(rows.size());
            // The parent's own path: its relative path at level >= 1, its id at level 0.
            std::string base = d == 1 ? parent->id() + "/" : parents[p].relative_path;
            for (const auto& child : parent->children().samples()) {
                std::string rel = base + child.id();
                if (child.is_folder()) rel += "/";
                rows.push_back({&child, static_cast<int64_t>(p), -1, std::move(rel)});
            }
        }
    }
    return levels;
}

DataType stored_type(const DataType& t) {
    if (t.is_complete()) return t;
    switch (t.id()) {
        case TypeId::List:
            return DataType::list(stored_type(t.element()));
        case TypeId::FixedList:
            return DataType::fixed_list(stored_type(t.element()), t.size());
        case TypeId::Struct: {
            std::vector<std::pair<std::string, DataType>> fields;
            for (size_t i = 0; i < t.field_count(); ++i)
                fields.emplace_back(t.field_name(i), stored_type(t.field_type(i)));
            return DataType::structure(fields);
        }
        case TypeId::Map:
            return DataType::map(stored_type(t.field_type(0)), stored_type(t.field_type(1)));
        default:  // Null: no value ever said what it is
            return DataType::string();
    }
}

const std::string& column_description(const std::string& name) {
    static const std::map<std::string, std::string> texts = {
        {"id", "Unique sample identifier within parent scope. Must be unique among siblings."},
        {"type", "Sample type discriminator (FILE or FOLDER)."},
        {"internal:current_id",
         "Current sample position at this level (0-indexed). Enables O(1) random access and "
         "relational JOINs (ZIP, FOLDER, TACOCAT)."},
        {"internal:parent_id",
         "Foreign key referencing parent sample position in previous level (ZIP, FOLDER, "
         "TACOCAT)."},
        {"internal:offset",
         "Byte offset in container file where sample data begins. Used for GDAL /vsisubfile/ paths "
         "(ZIP, TACOCAT)."},
        {"internal:size",
         "Size in bytes of sample data. Derived from sample._size_bytes. Combined with offset for "
         "/vsisubfile/ in ZIP/TACOCAT (ZIP, FOLDER, TACOCAT)."},
        {"internal:gdal_vsi",
         "Complete GDAL Virtual File System path for direct data access (ZIP, FOLDER, TACOCAT)."},
        {"internal:source_file",
         "Original source tacozip filename in TACOCAT consolidated datasets. Disambiguates samples "
         "from multiple sources (only TACOCAT)."},
        {"internal:relative_path",
         "Relative path from DATA/ directory. Format: {parent_path}/{id} or {id} for level0 (ZIP, "
         "FOLDER, TACOCAT)."},
    };
    static const std::string empty;
    auto it = texts.find(name);
    return it == texts.end() ? empty : it->second;
}

}  // namespace taco::metadata
