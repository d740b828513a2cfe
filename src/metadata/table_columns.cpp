#include "metadata/table_columns.hpp"

namespace taco::metadata {
namespace {

void add_core_and_extensions(std::vector<TableColumn>& cols, const LevelTable& level, int64_t begin,
                             size_t count) {
    std::vector<std::string_view> ids(count), types(count);
    for (size_t i = 0; i < count; ++i) {
        const Sample* s = level.rows[begin + i].sample;
        ids[i] = s->id();
        types[i] = to_string(s->type());
    }
    cols.push_back(TableColumn::of_strings("id", std::move(ids)));
    cols.push_back(TableColumn::of_strings("type", std::move(types)));
    for (const auto& c : level.schema) {
        std::vector<const Value*> cells(count);
        for (size_t i = 0; i < count; ++i) cells[i] = level.rows[begin + i].sample->get(c.name);
        cols.push_back(TableColumn::of_values(c.name, stored_type(c.type), std::move(cells)));
    }
}

void add_placement(std::vector<TableColumn>& cols, const Placement& p, int64_t begin,
                   size_t count) {
    cols.push_back(TableColumn::of_int64(
        "internal:offset",
        std::vector<int64_t>(p.offset.begin() + begin, p.offset.begin() + begin + count)));
    cols.push_back(TableColumn::of_int64(
        "internal:size",
        std::vector<int64_t>(p.size.begin() + begin, p.size.begin() + begin + count)));
}

}  // namespace

std::vector<TableColumn> level_columns(const std::vector<LevelTable>& levels, size_t level,
                                       const Placement* zip_placement) {
    const LevelTable& table = levels[level];
    size_t n = table.rows.size();
    std::vector<TableColumn> cols;
    add_core_and_extensions(cols, table, 0, n);
    std::vector<int64_t> current(n), parent(n);
    for (size_t i = 0; i < n; ++i) {
        current[i] = static_cast<int64_t>(i);
        parent[i] = table.rows[i].parent;
    }
    cols.push_back(TableColumn::of_int64("internal:current_id", std::move(current)));
    cols.push_back(TableColumn::of_int64("internal:parent_id", std::move(parent)));
    if (zip_placement) add_placement(cols, *zip_placement, 0, n);
    if (level > 0) {
        std::vector<std::string_view> rel(n);
        for (size_t i = 0; i < n; ++i) rel[i] = table.rows[i].relative_path;
        cols.push_back(TableColumn::of_strings("internal:relative_path", std::move(rel)));
    }
    return cols;
}

std::vector<TableColumn> meta_columns(const LevelTable& level, int64_t begin, size_t count,
                                      const Placement* zip_placement) {
    std::vector<TableColumn> cols;
    add_core_and_extensions(cols, level, begin, count);
    if (zip_placement) add_placement(cols, *zip_placement, begin, count);
    return cols;
}

}  // namespace taco::metadata
