// Native Sample / Tortilla / Taco and create(). The tacotoolbox-shaped Python classes in
// tacocore/_toolbox.py wrap these.
#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <unistd.h>

#include <filesystem>
#include <memory>
#include <mutex>

#include "format/collection_json.hpp"
#include "format/collection_parse.hpp"
#include "io/cancel.hpp"
#include "metadata/level_tables.hpp"
#include "model/model_codec.hpp"
#include "py_common.hpp"
#include "py_paths.hpp"
#include "query/dataframe_impl.hpp"
#include "taco/collection.hpp"
#include "taco/dataframe.hpp"
#include "taco/errors.hpp"
#include "taco/writer.hpp"
#include "toolbox/sample_table.hpp"

namespace taco::py {
using namespace nb::literals;

namespace {

nb::dict fields_dict(const Sample& s) {
    nb::dict d;
    for (const auto& f : s.fields())
        d[nb::str(f.name.c_str(), f.name.size())] = from_value(f.value);
    return d;
}

std::vector<std::pair<std::string, std::string>> schema_pairs(
    const std::vector<ColumnType>& schema) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& c : schema) out.emplace_back(c.name, c.type.arrow_name());
    return out;
}

// Tortilla-level columns: {name: sequence with one value per sample}; padding samples get null.
Tortilla with_columns(const Tortilla& t, nb::dict columns) {
    size_t real = 0;
    for (const auto& s : t.samples()) real += !s.is_padding();
    std::vector<Sample> samples = t.samples();
    for (auto [key, values] : columns) {
        std::string name = nb::cast<std::string>(key);
        nb::list list(values);
        if (list.size() != real && list.size() != samples.size()) {
            throw SchemaError("Tortilla.extend_with: column '" + name + "' has " +
                              std::to_string(list.size()) + " values, expected one per sample (" +
                              std::to_string(real) + ")");
        }
        for (const auto& s : samples) {
            if (s.get(name))
                throw SchemaError("Tortilla.extend_with: column '" + name + "' already exists");
        }
        size_t i = 0;
        for (auto& s : samples) {
            if (s.is_padding() && list.size() == real) continue;
            s.set(name, to_value(list[i], "column '" + name + "' value " + std::to_string(i)));
            ++i;
        }
    }
    // Re-validate: padding samples need the new columns too (as typed nulls), in schema order.
    std::vector<Sample> real_samples;
    size_t pad = 0;
    for (auto& s : samples) {
        if (s.is_padding())
            ++pad;
        else
            real_samples.push_back(std::move(s));
    }
    TortillaOptions opts;
    if (pad) opts.pad_to = real_samples.size() + pad;
    return Tortilla(std::move(real_samples), opts);
}

}  // namespace

void bind_model(nb::module_& m) {
    nb::class_<Sample>(m, "Sample",
                       "A FILE (bytes on disk or in memory) or a FOLDER (a Tortilla of children).")
        .def_static(
            "file",
            [](std::string id, std::filesystem::path path) {
                return Sample::file(std::move(id), std::move(path));
            },
            "id"_a, "path"_a,
            "FILE sample whose bytes are read from `path` when the dataset is written.")
        .def_static(
            "from_bytes",
            [](std::string id, nb::bytes data) {
                return Sample::bytes(std::move(id), std::string(data.c_str(), data.size()));
            },
            "id"_a, "data"_a, "FILE sample holding `data` in memory.")
        .def_static("folder", &Sample::folder, "id"_a, "children"_a,
                    "FOLDER sample holding a Tortilla.")
        .def_prop_ro("id", &Sample::id, "The sample id.")
        .def_prop_ro(
            "type", [](const Sample& s) { return std::string(to_string(s.type())); },
            "\"FILE\" or \"FOLDER\".")
        .def_prop_ro(
            "path",
            [](const Sample& s) -> nb::object {
                if (s.path().empty()) return nb::none();
                return fs_str(s.path());
            },
            "The file path of a FILE read from disk; None for bytes and FOLDERs.")
        .def_prop_ro("size", &Sample::size,
                     "FILE: byte size; FOLDER: bytes of every FILE below it.")
        .def_prop_ro("is_padding", &Sample::is_padding,
                     "True for __TACOPAD__ samples added by pad_to.")
        .def_prop_ro("children", &Sample::children, nb::rv_policy::reference_internal,
                     "The Tortilla of a FOLDER.")
        .def(
            "set",
            [](Sample& s, std::string key, nb::handle value) {
                s.set(key, to_value(value, "sample '" + s.id() + "' field '" + key + "'"));
            },
            "key"_a, "value"_a.none(), "Adds or replaces one extension field.")
        .def(
            "get",
            [](const Sample& s, const std::string& key) -> nb::object {
                const Value* v = s.get(key);
                if (!v) throw nb::key_error(key.c_str());
                return from_value(*v);
            },
            "key"_a, "The value of one extension field (KeyError if absent).")
        .def(
            "pop",
            [](Sample& s, const std::string& key) {
                try {
                    return from_value(s.pop(key));
                } catch (const std::out_of_range&) {
                    throw nb::key_error(key.c_str());
                }
            },
            "key"_a, "Removes one extension field and returns its value (KeyError if absent).")
        .def("fields", &fields_dict, "Extension fields as a dict, in order.")
        .def(
            "field_types",
            [](const Sample& s) {
                std::vector<std::pair<std::string, std::string>> out;
                for (const auto& f : s.fields())
                    out.emplace_back(f.name, f.value.type().arrow_name());
                return out;
            },
            "[(field, Arrow type name)] of the extension fields, in order.")
        // copy.copy: its own fields; the path, bytes and FOLDER children, which cannot change,
        // are shared (Python's default copy would have shared the fields too).
        .def("__copy__", [](const Sample& s) { return Sample(s); })
        // Pickling (Dask workers, multiprocessing): the whole sample with exact value types.
        .def("__getstate__",
             [](const Sample& s) {
                 const std::string state = model::encode_sample(s);
                 return nb::bytes(state.data(), state.size());
             })
        .def("__setstate__", [](Sample& self, nb::bytes state) {
            new (&self) Sample(model::decode_sample(std::string_view(state.c_str(), state.size()),
                                                    "pickled Sample"));
        });

    nb::class_<Tortilla>(m, "Tortilla", "Samples sharing one metadata schema.")
        .def(nb::new_(
                 [](std::vector<Sample> samples, std::optional<size_t> pad_to, bool strict_schema) {
                     TortillaOptions opts;
                     opts.pad_to = pad_to;
                     opts.strict_schema = strict_schema;
                     return Tortilla(std::move(samples), opts);
                 }),
             "samples"_a, "pad_to"_a = nb::none(), "strict_schema"_a = true,
             "Validates ids and schema; pad_to adds __TACOPAD__ samples up to a multiple.")
        .def("__len__", &Tortilla::size, "Number of samples, padding included.")
        .def(
            "__getitem__",
            [](const Tortilla& t, int64_t i) {
                int64_t n = static_cast<int64_t>(t.size());
                if (i < 0) i += n;
                if (i < 0 || i >= n) throw nb::index_error();
                return t[static_cast<size_t>(i)];
            },
            "The sample at a position (negative counts from the end).")
        // Copies: a reference into the tortilla would let sample.set/pop change one of its
        // samples in place, behind its schema (every sample has the same columns).
        .def_prop_ro(
            "samples", [](const Tortilla& t) { return t.samples(); },
            "The samples (copies), padding included.")
        .def_prop_ro(
            "schema", [](const Tortilla& t) { return schema_pairs(t.schema()); },
            "[(column, Arrow type name)] shared by the samples.")
        .def_prop_ro("depth", &Tortilla::depth,
                     "Number of levels including this one (1 when every sample is a FILE).")
        .def_prop_ro("total_size", &Tortilla::total_size, "Bytes of every FILE in the tree.")
        .def("with_columns", &with_columns, "columns"_a,
             "A new Tortilla whose samples gain the given columns (one value per sample).")
        .def("__getstate__",
             [](const Tortilla& t) {
                 const std::string state = model::encode_tortilla(t);
                 return nb::bytes(state.data(), state.size());
             })
        .def("__setstate__", [](Tortilla& self, nb::bytes state) {
            new (&self) Tortilla(model::decode_tortilla(
                std::string_view(state.c_str(), state.size()), "pickled Tortilla"));
        });

    nb::class_<Taco>(m, "Taco",
                     "A root Tortilla plus COLLECTION metadata, validated (ids, schema, PIT).")
        .def(nb::new_([](Tortilla root, const std::string& collection_json,
                         std::map<std::string, std::string> field_descriptions) {
                 auto doc =
                     format::parse_user_json_document(collection_json, "Taco collection fields");
                 auto info =
                     format::collection_info_from_json(doc, "Taco collection fields", false);
                 info.field_descriptions = std::move(field_descriptions);
                 return Taco(std::move(root), std::move(info));
             }),
             "tortilla"_a, "collection_json"_a,
             "field_descriptions"_a = std::map<std::string, std::string>{},
             "Validates the tree (PIT) and the COLLECTION fields given as a JSON object; "
             "field_descriptions (column -> text) go into taco:field_schema.")
        .def_prop_ro("tortilla", &Taco::root, nb::rv_policy::reference_internal,
                     "The root Tortilla.")
        .def_prop_ro("levels", &Taco::levels, "Number of levels the dataset will have.")
        .def(
            "collection_json",
            [](const Taco& t) {
                return format::dump_python_style(
                    format::collection_json(t, metadata::build_level_tables(t)));
            },
            "The COLLECTION.json text the writers produce for this dataset.");

    m.def(
        "samples_table",
        [](const std::vector<const Sample*>& samples) {
            // One DuckDB session per process, made on first use (~10 ms): a script may export
            // every sample's metadata. A forked child makes its own. Never closed: closing
            // DuckDB among the static destructors at exit freed memory twice.
            static std::mutex mutex;
            static metadata::DuckSession* session = nullptr;
            static pid_t owner = 0;
            std::lock_guard lock(mutex);
            if (!session || owner != ::getpid()) {
                session = new metadata::DuckSession(1);  // a parent's stays in its memory
                owner = ::getpid();
            }
            // Rows not from a dataset: the DataFrame's Arrow stream (__arrow_c_stream__) serves
            // them.
            return DataFrame(std::make_shared<query::DataFrameImpl>(
                nullptr, toolbox::samples_table(samples, *session), 0));
        },
        "samples"_a,
        "id, type, path and the extension fields of `samples` as a DataFrame, one row per "
        "sample, typed as the writer stores them (toolbox/sample_table.hpp).");

    m.def("parse_size", &parse_size, "text"_a,
          "Bytes of a size such as \"4GB\", \"512MB\" or \"2048\" (binary units, as "
          "tacotoolbox parses them); TacoSchemaError otherwise.");
    m.def(
        "create",
        [](const Taco& taco, const std::filesystem::path& output, const std::string& fmt,
           bool overwrite, int level, const std::string& split_size,
           const std::vector<std::string>& group_by, bool consolidate,
           const std::string& level_codec) {
            CreateOptions opts;
            opts.level_codec = parse_parquet_codec(level_codec);  // ValueError naming the choices
            if (!split_size.empty()) opts.split_size = parse_size(split_size);
            opts.group_by = group_by;
            opts.consolidate = consolidate;
            opts.format = fmt == "zip"      ? ContainerFormat::Zip
                          : fmt == "folder" ? ContainerFormat::Folder
                                            : ContainerFormat::Auto;
            opts.overwrite = overwrite;
            opts.compression_level = level;
            io::reset_cancel();
            CreateResult r;
            {
                GilRelease release;
                r = create(taco, output, opts);
            }
            nb::dict d;
            d["path"] = fs_str(r.path);
            d["format"] = std::string(to_string(r.format));
            d["bytes"] = r.bytes;
            d["files"] = r.files;
            d["level_rows"] = r.level_rows;
            nb::list parts;
            for (const auto& p : r.parts) parts.append(fs_str(p));
            d["parts"] = parts;
            d["index"] = fs_str(r.index);
            return d;
        },
        "taco"_a, "output"_a, "output_format"_a = "auto", "overwrite"_a = false,
        "compression_level"_a = 3, "split_size"_a = "", "group_by"_a = std::vector<std::string>{},
        "consolidate"_a = true, "level_codec"_a = "lz4_raw",
        "Writes the dataset (ZIP for .zip/.tacozip, else FOLDER); returns a summary dict.");
}

}  // namespace taco::py
