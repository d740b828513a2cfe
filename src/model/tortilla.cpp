// Tortilla validation: non-empty, unique ids, one schema (strict or aligned), padding.
#include "taco/tortilla.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "taco/errors.hpp"

namespace taco {
namespace {

std::string describe(const Sample& s, size_t position) {
    return "sample '" + s.id() + "' (position " + std::to_string(position) + ")";
}

void check_unique_ids(const std::vector<Sample>& samples) {
    std::unordered_map<std::string_view, size_t> counts;
    counts.reserve(samples.size());
    for (const auto& s : samples) ++counts[s.id()];
    if (counts.size() == samples.size()) return;
    std::map<std::string_view, size_t> dups;
    for (auto& [id, n] : counts)
        if (n > 1) dups.emplace(id, n);
    std::string msg = "Tortilla has duplicate sample ids: ";
    size_t shown = 0;
    for (auto& [id, n] : dups) {
        if (shown == 10) {
            msg += ", ... (" + std::to_string(dups.size() - 10) + " more)";
            break;
        }
        msg += (shown++ ? ", '" : "'") + std::string(id) + "' x" + std::to_string(n);
    }
    throw SchemaError(msg);
}

// DuckDB, which writes and reads the level tables, compares column names without ASCII case:
// "Cloud" beside "cloud" (or "Type" beside the core "type") would pass every check here and
// fail at create() with a binder error about an internal table. Refused now, naming a sample.
void check_names_differ_in_more_than_case(const std::vector<ColumnType>& schema,
                                          const std::vector<Sample>& samples) {
    auto lower = [](std::string_view name) {
        std::string out(name);
        for (char& c : out)
            if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        return out;
    };
    auto holder = [&](const std::string& name) {
        for (size_t i = 0; i < samples.size(); ++i)
            if (samples[i].get(name)) return describe(samples[i], i);
        return std::string("no sample");
    };
    std::unordered_map<std::string, std::string> seen = {{"id", "id"}, {"type", "type"}};
    for (const ColumnType& c : schema) {
        const auto [it, inserted] = seen.emplace(lower(c.name), c.name);
        if (inserted) continue;
        const bool core = it->second == "id" || it->second == "type";
        throw SchemaError(
            "column '" + c.name + "' of " + holder(c.name) + " differs from " +
            (core ? "the core column '" + it->second + "'"
                  : "column '" + it->second + "' of " + holder(it->second)) +
            " only in letter case: DuckDB, which writes and reads the metadata tables, takes them "
            "for one column. Rename one of them");
    }
}

// Strict mode: names and order as the first sample, types compatible (nulls fit any type).
std::vector<ColumnType> strict_schema(const std::vector<Sample>& samples) {
    const Sample& first = samples.front();
    std::vector<ColumnType> schema;
    for (const auto& f : first.fields()) schema.push_back({f.name, f.value.type()});
    for (size_t i = 1; i < samples.size(); ++i) {
        const auto& fields = samples[i].fields();
        for (size_t c = 0; c < std::max(fields.size(), schema.size()); ++c) {
            if (c >= fields.size()) {
                throw SchemaError("Tortilla schema mismatch: " + describe(samples[i], i) +
                                  " has no column '" + schema[c].name + "' (sample '" + first.id() +
                                  "' has it; use strict_schema=false to fill it with nulls)");
            }
            if (c >= schema.size() || fields[c].name != schema[c].name) {
                bool known = std::any_of(schema.begin(), schema.end(), [&](const ColumnType& t) {
                    return t.name == fields[c].name;
                });
                throw SchemaError(
                    "Tortilla schema mismatch: " + describe(samples[i], i) + " has column '" +
                    fields[c].name + "' at position " + std::to_string(c) +
                    (known ? ", but sample '" + first.id() + "' has it at another position"
                           : ", which sample '" + first.id() + "' does not have") +
                    " (strict schema requires the same columns in the same order)");
            }
            DataType merged;
            if (!DataType::unify(schema[c].type, fields[c].value.type(), merged)) {
                throw SchemaError("Tortilla schema mismatch: " + describe(samples[i], i) +
                                  " column '" + fields[c].name + "' has type " +
                                  fields[c].value.type().arrow_name() + ", expected " +
                                  schema[c].type.arrow_name() + " as in the samples before it");
            }
            schema[c].type = std::move(merged);
        }
    }
    return schema;
}

// Aligned mode: the union of all columns, code-point sorted like the reference, types unified.
std::vector<ColumnType> aligned_schema(const std::vector<Sample>& samples) {
    std::map<std::string, DataType> columns;  // std::map orders by byte = code point for UTF-8
    std::map<std::string, size_t> first_owner;
    for (size_t i = 0; i < samples.size(); ++i) {
        for (const auto& f : samples[i].fields()) {
            auto [it, inserted] = columns.emplace(f.name, f.value.type());
            if (inserted) {
                first_owner[f.name] = i;
                continue;
            }
            DataType merged;
            if (!DataType::unify(it->second, f.value.type(), merged)) {
                throw SchemaError("Tortilla schema mismatch: " + describe(samples[i], i) +
                                  " column '" + f.name + "' has type " +
                                  f.value.type().arrow_name() + ", expected " +
                                  it->second.arrow_name() + " as in sample '" +
                                  samples[first_owner[f.name]].id() + "'");
            }
            it->second = std::move(merged);
        }
    }
    std::vector<ColumnType> schema;
    for (auto& [name, type] : columns) schema.push_back({name, type});
    return schema;
}

}  // namespace

Tortilla::Tortilla(std::vector<Sample> samples, TortillaOptions options) {
    if (samples.empty()) throw SchemaError("Tortilla must contain at least one sample");
    check_unique_ids(samples);
    if (options.strict_schema) {
        schema_ = strict_schema(samples);
        check_names_differ_in_more_than_case(schema_, samples);
    } else {
        schema_ = aligned_schema(samples);
        check_names_differ_in_more_than_case(schema_, samples);  // before every sample has all
        for (auto& s : samples) {
            std::vector<Field> aligned;
            aligned.reserve(schema_.size());
            for (const auto& col : schema_) {
                const Value* v = s.get(col.name);
                aligned.push_back({col.name, v ? *v : Value::null(col.type)});
            }
            s.fields_ = std::move(aligned);
        }
    }
    if (options.pad_to) {
        size_t k = *options.pad_to;
        if (k == 0) throw SchemaError("Tortilla pad_to must be at least 1");
        size_t missing = (k - samples.size() % k) % k;
        // Padding exists to even out tortilla sizes, not to multiply them: a typo such as
        // pad_to=100000000 would otherwise run for hours writing empty samples.
        const size_t allowed = std::max(kMaxPaddingFloor, kMaxPaddingFactor * samples.size());
        if (k > kMaxPadTo || missing > allowed) {
            throw SchemaError(
                "pad_to " + std::to_string(k) + " would add " + std::to_string(missing) +
                " __TACOPAD__ samples to a tortilla of " + std::to_string(samples.size()) +
                "; pad_to may be at most " + std::to_string(kMaxPadTo) + " and add at most max(" +
                std::to_string(kMaxPaddingFloor) + ", " + std::to_string(kMaxPaddingFactor) +
                " x samples) = " + std::to_string(allowed));
        }
        for (size_t i = 0; i < missing; ++i) samples.push_back(Sample::padding(i, schema_));
    }
    for (const auto& s : samples) {
        total_size_ += s.size();
        if (s.is_folder()) depth_ = std::max(depth_, s.children().depth() + 1);
    }
    samples_ = std::make_shared<const std::vector<Sample>>(std::move(samples));
}

const std::vector<Sample>& Tortilla::moved_from() {
    static const std::vector<Sample> none;
    return none;
}

}  // namespace taco
