#include "toolbox/sample_table.hpp"

#include <map>
#include <string>

#include "metadata/level_tables.hpp"
#include "taco/errors.hpp"

namespace taco::toolbox {
namespace {

// Extension columns of `samples`, in the order first seen, each with its unified type.
std::vector<ColumnType> union_schema(const std::vector<const Sample*>& samples) {
    std::vector<ColumnType> columns;
    std::map<std::string, size_t, std::less<>> index;
    for (const Sample* s : samples) {
        for (const Field& f : s->fields()) {
            const auto [it, added] = index.try_emplace(f.name, columns.size());
            if (added) {
                columns.push_back({f.name, f.value.type()});
                continue;
            }
            DataType& type = columns[it->second].type;
            DataType merged;
            if (!DataType::unify(type, f.value.type(), merged))
                throw SchemaError("sample '" + s->id() + "' field '" + f.name + "': type " +
                                  f.value.type().arrow_name() + ", expected " + type.arrow_name() +
                                  " as in the samples before it");
            type = merged;
        }
    }
    return columns;
}

}  // namespace

std::shared_ptr<const metadata::ResultTable> samples_table(
    const std::vector<const Sample*>& samples, metadata::DuckSession& db) {
    const std::vector<ColumnType> schema = union_schema(samples);
    std::vector<Value> core;  // id, type, path of each sample: the cells point into it
    core.reserve(samples.size() * 3);
    for (const Sample* s : samples) {
        core.emplace_back(s->id());
        core.emplace_back(to_string(s->type()));
        const std::string path = s->path().generic_string();
        core.push_back(path.empty() ? Value::null(DataType::string()) : Value(path));
    }
    std::vector<metadata::TableColumn> columns;
    const char* core_names[] = {"id", "type", "path"};
    for (size_t c = 0; c < 3; ++c) {
        std::vector<const Value*> cells(samples.size());
        for (size_t r = 0; r < samples.size(); ++r) cells[r] = &core[r * 3 + c];
        columns.push_back(
            metadata::TableColumn::of_values(core_names[c], DataType::string(), std::move(cells)));
    }
    for (const ColumnType& c : schema) {
        std::vector<const Value*> cells(samples.size());
        for (size_t r = 0; r < samples.size(); ++r) cells[r] = samples[r]->get(c.name);
        columns.push_back(metadata::TableColumn::of_values(c.name, metadata::stored_type(c.type),
                                                           std::move(cells)));
    }
    // DuckDB turns the columns into its own types once (the writer's path, taco_stream), and the
    // result is exported to Arrow as any query's is.
    db.exec_with_stream("CREATE OR REPLACE TEMP TABLE taco_samples AS SELECT * FROM taco_stream()",
                        columns);
    auto table = metadata::ResultTable::fetch(db, "SELECT * FROM taco_samples", nullptr, true);
    db.exec("DROP TABLE taco_samples");
    return table;
}

}  // namespace taco::toolbox
