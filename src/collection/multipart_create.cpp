#include "collection/multipart_create.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>

#include "collection/tacocat_file.hpp"
#include "collection/tacocat_write.hpp"
#include "format/create_session.hpp"
#include "io/parallel.hpp"
#include "io/staged_output.hpp"
#include "model/python_str.hpp"
#include "paths/dataset_names.hpp"
#include "taco/errors.hpp"

namespace fs = std::filesystem;

namespace taco {

uint64_t parse_size(const std::string& text) {
    std::string s;
    for (char c : text)
        if (!std::isspace(static_cast<unsigned char>(c)))
            s += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    size_t digits = 0;
    while (digits < s.size() &&
           (std::isdigit(static_cast<unsigned char>(s[digits])) || s[digits] == '.'))
        ++digits;
    const std::string number = s.substr(0, digits), unit = s.substr(digits);
    static const std::map<std::string, double> units = {{"", 1},
                                                        {"B", 1},
                                                        {"K", 1024.0},
                                                        {"KB", 1024.0},
                                                        {"KIB", 1024.0},
                                                        {"M", 1048576.0},
                                                        {"MB", 1048576.0},
                                                        {"MIB", 1048576.0},
                                                        {"G", 1073741824.0},
                                                        {"GB", 1073741824.0},
                                                        {"GIB", 1073741824.0},
                                                        {"T", 1099511627776.0},
                                                        {"TB", 1099511627776.0},
                                                        {"TIB", 1099511627776.0}};
    const auto u = units.find(unit);
    double value = 0;
    bool ok = !number.empty() && std::count(number.begin(), number.end(), '.') <= 1 &&
              number.front() != '.' && number.back() != '.' && u != units.end();
    if (ok) {
        try {
            value = std::stod(number) * u->second;
        } catch (const std::out_of_range&) {  // hundreds of digits
            value = 0;
        }
        ok = value >= 1 && value < 1.8e19;
    }
    if (!ok) {
        throw SchemaError("invalid size '" + text +
                          "': expected a positive number of bytes with an optional unit, e.g. "
                          "4GB, 512MB, 100KiB or 2048");
    }
    return static_cast<uint64_t>(std::floor(value));
}

namespace collection {
namespace {

bool is_padding(const Sample& s) {
    return s.id().rfind("__TACOPAD__", 0) == 0;
}

// tacotoolbox's _sanitize_filename: unsafe characters become '_', runs of '_' and blanks one
// '_', none at either end.
std::string safe_file_part(const std::string& value) {
    std::string out;
    for (char c : value) {
        const bool unsafe = std::string_view("/\\:*?\"<>|'").find(c) != std::string_view::npos;
        const bool sep = unsafe || c == '_' || std::isspace(static_cast<unsigned char>(c));
        if (sep) {
            if (out.empty() || out.back() != '_') out += '_';
        } else {
            out += c;
        }
    }
    while (!out.empty() && out.front() == '_') out.erase(out.begin());
    while (!out.empty() && out.back() == '_') out.pop_back();
    return out;
}

// The group key as Python's str() writes the value (what tacotoolbox names files by).
std::optional<std::string> key_of(const Sample& s, const std::string& column) {
    if (column == "id") return s.id();
    if (column == "type") return std::string(s.is_file() ? "FILE" : "FOLDER");
    const Value* v = s.get(column);
    if (!v || v->is_null()) return std::nullopt;
    return model::python_str(*v);  // 100.0, 1e-07, b'ab', 2020-01-01 00:00:00, as tacotoolbox
}

using Indices = std::vector<size_t>;

// Positions in `all` (the root samples) cut into runs of at most `max` sample bytes.
std::vector<Indices> split_by_size(const Indices& picked, const std::vector<Sample>& all,
                                   uint64_t max) {
    std::vector<Indices> out;
    Indices current;
    uint64_t size = 0;
    for (size_t i : picked) {
        const Sample& s = all[i];
        if (max > 0 && !current.empty() && size + s.size() > max) {
            out.push_back(std::move(current));
            current.clear();
            size = 0;
        }
        current.push_back(i);
        size += s.size();
    }
    if (!current.empty()) out.push_back(std::move(current));
    return out;
}

std::string part_suffix(size_t k) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "_part%04zu", k + 1);
    return buf;
}

std::vector<PartPlan> plan_chunks(const Taco& taco, const std::string& stem, const std::string& ext,
                                  const CreateOptions& options) {
    const std::vector<Sample>& all = taco.root().samples();
    Indices samples;
    for (size_t i = 0; i < all.size(); ++i)
        if (!is_padding(all[i])) samples.push_back(i);
    std::vector<PartPlan> out;
    if (options.group_by.empty()) {
        auto pieces = split_by_size(samples, all, options.split_size);
        if (pieces.size() == 1) return {{stem + ext, std::move(pieces[0])}};
        for (size_t k = 0; k < pieces.size(); ++k)
            out.push_back({stem + part_suffix(k) + ext, std::move(pieces[k])});
        return out;
    }
    const std::vector<std::string>& columns = options.group_by;
    std::string column;  // as messages name the grouping: "region" or "region, sensor"
    for (const std::string& c : columns) column += (column.empty() ? "" : ", ") + c;
    const auto& schema = taco.root().schema();
    for (const std::string& c : columns) {
        const bool known = c == "id" || c == "type" ||
                           std::any_of(schema.begin(), schema.end(),
                                       [&](const ColumnType& t) { return t.name == c; });
        if (!known) {
            std::string names = "id, type";
            for (const ColumnType& t : schema) names += ", " + t.name;
            throw SchemaError("group_by: level 0 has no column '" + c + "' (its columns: " + names +
                              ")");
        }
    }
    std::vector<std::string> order;
    std::map<std::string, Indices> groups;
    std::vector<std::string> missing;
    for (size_t i : samples) {
        const Sample& s = all[i];
        // Several columns: their values joined by '_' (tacotoolbox's group key).
        std::optional<std::string> key = std::string();
        for (size_t c = 0; c < columns.size() && key; ++c) {
            const auto value = key_of(s, columns[c]);
            if (value) {
                *key += (c ? "_" : "") + *value;
            } else {
                key.reset();
            }
        }
        if (!key) {
            missing.push_back(all[i].id());
            continue;
        }
        if (!groups.count(*key)) order.push_back(*key);
        groups[*key].push_back(i);
    }
    if (!missing.empty()) {
        std::string list;
        for (size_t i = 0; i < missing.size() && i < 10; ++i)
            list += (i ? ", " : "") + std::string("'") + missing[i] + "'";
        if (missing.size() > 10) list += ", ... (" + std::to_string(missing.size()) + " in all)";
        throw SchemaError("group_by '" + column +
                          "': samples without a value cannot be put in a "
                          "part: " +
                          list);
    }
    std::map<std::string, std::string> taken;  // safe name -> original value
    for (const std::string& key : order) {
        const std::string safe = safe_file_part(key);
        if (safe.empty()) {
            throw SchemaError("group_by '" + column + "': value '" + key +
                              "' leaves nothing to name a file by");
        }
        const auto [it, fresh] = taken.emplace(safe, key);
        if (!fresh) {
            throw SchemaError("group_by '" + column + "': values '" + it->second + "' and '" + key +
                              "' give the same file name '" + stem + "_" + safe + ext + "'");
        }
        auto pieces = split_by_size(groups[key], all, options.split_size);
        if (pieces.size() == 1) {
            out.push_back({stem + "_" + safe + ext, std::move(pieces[0])});
            continue;
        }
        for (size_t k = 0; k < pieces.size(); ++k)
            out.push_back({stem + "_" + safe + part_suffix(k) + ext, std::move(pieces[k])});
    }
    return out;
}

}  // namespace

std::vector<PartPlan> plan_parts(const Taco& taco, const fs::path& output,
                                 const CreateOptions& options) {
    const std::string ext = output.extension().string();
    const bool zip = options.format == ContainerFormat::Zip ||
                     (options.format == ContainerFormat::Auto && paths::has_zip_suffix(output));
    if (!zip) {
        throw SchemaError(
            "split_size and group_by write ZIP parts; give a .tacozip/.zip output "
            "(got '" +
            output.string() + "')");
    }
    return plan_chunks(taco, output.stem().string(), ext, options);
}

namespace {

struct Chunk {
    std::string name;  // file name of the part
    std::vector<Sample> samples;
};

}  // namespace

CreateResult create_parts(const Taco& taco, const fs::path& output, const CreateOptions& options) {
    const fs::path dir = fs::absolute(output).lexically_normal().parent_path();
    std::vector<Chunk> chunks;
    for (PartPlan& p : plan_parts(taco, output, options)) {
        Chunk c{std::move(p.name), {}};
        for (size_t i : p.samples) c.samples.push_back(taco.root().samples()[i]);
        chunks.push_back(std::move(c));
    }

    CreateOptions single = options;
    single.split_size = 0;
    single.group_by.clear();
    single.format = ContainerFormat::Zip;
    if (chunks.size() == 1 && options.group_by.empty()) {
        CreateResult r = create(taco, output, single);
        r.parts = {r.path};
        return r;
    }

    // Every target is reserved (and checked not to exist) before anything is written.
    std::vector<std::unique_ptr<io::StagedOutput>> staged;
    for (const Chunk& c : chunks)
        staged.push_back(std::make_unique<io::StagedOutput>(dir / c.name, options.overwrite));
    std::unique_ptr<io::StagedOutput> index;
    if (chunks.size() > 1 && options.consolidate) {
        index = std::make_unique<io::StagedOutput>(dir / kTacocatFolderName, options.overwrite);
    }

    // Progress over all parts: each part reports its own bytes, summed here.
    std::mutex progress_mutex;
    CreateProgress total;
    std::vector<CreateProgress> per_part(chunks.size());
    for (const Chunk& c : chunks) {
        for (const Sample& s : c.samples) total.bytes_total += s.size();
    }
    std::vector<CreateResult> results(chunks.size());
    single.overwrite = false;
    // One DuckDB database for every part and the index, opened while the parts' files are
    // copied: opening one costs ~20 ms of CPU, a connection to it almost nothing.
    const format::PendingSession::Opening database = format::PendingSession::open_database();
    io::parallel_for(chunks.size(), 0, [&](size_t k) {
        CollectionInfo info = taco.info();
        info.extent.reset();  // each part computes its own, as the reference does
        const Taco part(Tortilla(chunks[k].samples), info);
        CreateOptions opts = single;
        if (options.progress) {
            opts.progress = [&, k](const CreateProgress& p) {
                std::lock_guard lock(progress_mutex);
                per_part[k] = p;
                CreateProgress sum;
                sum.bytes_total = total.bytes_total;
                for (const CreateProgress& q : per_part) {
                    sum.bytes_done += q.bytes_done;
                    sum.files_done += q.files_done;
                    sum.files_total += q.files_total;
                }
                options.progress(sum);
            };
        }
        format::PendingSession session(database);
        results[k] = format::create(part, staged[k]->staging(), opts, session);
    });

    CreateResult out;
    out.format = ContainerFormat::Zip;
    if (index) {
        std::vector<fs::path> paths;
        std::vector<std::string> names;
        for (size_t k = 0; k < chunks.size(); ++k) {
            paths.push_back(staged[k]->staging());
            names.push_back(chunks[k].name);
        }
        format::PendingSession session(database);
        write_tacocat_at(paths, names, index->staging(), TacocatFormat::Folder, &session.get());
    }
    for (size_t k = 0; k < chunks.size(); ++k) {
        staged[k]->commit();
        out.parts.push_back(staged[k]->target());
        out.bytes += results[k].bytes;
        out.files += results[k].files;
        if (out.level_rows.size() < results[k].level_rows.size())
            out.level_rows.resize(results[k].level_rows.size());
        for (size_t l = 0; l < results[k].level_rows.size(); ++l)
            out.level_rows[l] += results[k].level_rows[l];
    }
    if (index) {
        index->commit();
        out.index = index->target();
    }
    out.path = out.parts.front();
    return out;
}

}  // namespace collection
}  // namespace taco
