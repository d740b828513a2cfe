// Native Dataset / DataFrame / validate. The tacoreader-shaped classes in tacocore/_reader.py
// wrap these. Every call that touches files releases the GIL.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/variant.h>
#include <nanobind/stl/vector.h>

#include "interruptible.hpp"
#include "metadata/result_arrow.hpp"
#include "native_key.hpp"
#include "paths/path_display.hpp"
#include "py_common.hpp"
#include "py_paths.hpp"
#include "query/dataframe_impl.hpp"
#include "sample_bytes.hpp"
#include "taco/dataframe.hpp"
#include "taco/dataset.hpp"
#include "taco/errors.hpp"
#include "taco/validate.hpp"

namespace taco::py {
using namespace nb::literals;

namespace {

// A read(key) result for Python: a VSI path string or a child DataFrame.
nb::object read_result(ReadResult r) {
    if (auto* s = std::get_if<std::string>(&r)) return nb::str(s->c_str(), s->size());
    return nb::cast(std::get<DataFrame>(std::move(r)));
}

// The GIL is released only when the read is about to wait (DataFrame::read's before_blocking:
// a FOLDER's children, a FOLDER dataset's file checks, the first id lookup). A FILE row of a
// ZIP is answered from memory in ~0.1 us, and releasing and re-taking the GIL around it cost
// about as much again (docs/READER.md §10.1).
template <typename Key>
nb::object read_key(const DataFrame& df, Key key) {
    std::optional<GilRelease> released;
    ReadResult r = df.read(key, [&released] {
        if (!released) released.emplace();
    });
    released.reset();  // the GIL again before any Python object is made
    return read_result(std::move(r));
}

// df.read(key) of a Python frame whose rows are the native ones, when the native read method
// (read_method.cpp) does not answer it from memory itself: a FOLDER's children, a FOLDER
// dataset, the first lookup by id, keyword arguments and every error. `fallback(link, key[,
// child])` takes what this does not: keys other than an int that fits 64 bits or valid text (the
// checked path, whose messages are unchanged), and a FOLDER's children, to be wrapped in the
// frame's class.
template <typename Key>
nb::object read_fast_key(const DataFrame& df, Key key, nb::handle link, nb::handle fallback,
                         nb::handle key_object) {
    nb::object r = read_key(df, key);
    if (PyUnicode_CheckExact(r.ptr())) return r;
    return fallback(link, key_object, r);
}

nb::object read_fast(const DataFrame& df, nb::handle link, nb::handle fallback, nb::handle key) {
    const std::optional<NativeKey> k = native_key(key.ptr());
    if (!k) return fallback(link, key);  // the checked path names what is wrong with it
    return std::visit([&](auto v) { return read_fast_key(df, v, link, fallback, key); }, *k);
}

nb::list contacts(const std::vector<Contact>& list) {
    nb::list out;
    for (const auto& c : list) {
        nb::dict d;
        auto opt = [](const std::optional<std::string>& s) -> nb::object {
            return s ? nb::object(nb::str(s->c_str())) : nb::none();
        };
        d["name"] = opt(c.name);
        if (c.uses_provider_shape()) {
            d["roles"] = c.roles ? nb::cast(*c.roles) : nb::none();
            d["url"] = opt(c.url);
            d["links"] = c.links ? nb::cast(*c.links) : nb::none();
        } else {
            d["organization"] = opt(c.organization);
            d["email"] = opt(c.email);
            d["role"] = opt(c.role);
        }
        out.append(d);
    }
    return out;
}

// The Arrow PyCapsule protocol: a capsule named "arrow_array_stream" that releases the stream
// if the consumer never took it.
nb::object arrow_stream_capsule(const DataFrame& df) {
    auto* stream = new ArrowArrayStream();
    const auto& impl = df.impl();
    if (impl.ctx) {
        std::lock_guard<std::mutex> lock(impl.ctx->db_mutex);
        metadata::export_arrow_stream(impl.table, impl.ctx->db, stream);
    } else {
        // Rows not from a dataset (samples_table): only the connection's Arrow options are
        // used, its time zone among them (UTC: timestamp[us, tz=UTC], as written).
        static metadata::DuckSession& options_only = []() -> metadata::DuckSession& {
            static metadata::DuckSession session(1);
            metadata::use_utc(session);
            return session;
        }();
        metadata::export_arrow_stream(impl.table, options_only, stream);
    }
    PyObject* capsule = PyCapsule_New(stream, "arrow_array_stream", [](PyObject* cap) {
        auto* s = static_cast<ArrowArrayStream*>(PyCapsule_GetPointer(cap, "arrow_array_stream"));
        if (s && s->release) s->release(s);
        delete s;
    });
    if (!capsule) {
        stream->release(stream);
        delete stream;
        throw nb::python_error();
    }
    return nb::steal(capsule);
}

}  // namespace

void bind_reader(nb::module_& m) {
    nb::class_<DataFrame>(m, "DataFrame",
                          "Rows of one level (or of one FOLDER's children), typed and in memory.")
        .def("__len__", &DataFrame::rows, "Number of rows.")
        .def(
            "__arrow_c_stream__",
            [](const DataFrame& df, nb::handle) { return arrow_stream_capsule(df); },
            "requested_schema"_a = nb::none(),
            "Arrow PyCapsule stream of the rows (columnar, no copy per row).")
        .def_prop_ro("columns", &DataFrame::column_names, "Column names, in order.")
        .def_prop_ro(
            "schema",
            [](const DataFrame& df) {
                std::vector<std::pair<std::string, std::string>> out;
                for (const auto& c : df.schema()) out.emplace_back(c.name, c.type.arrow_name());
                return out;
            },
            "[(column, Arrow type name)] in order.")
        .def_prop_ro("level", &DataFrame::level,
                     "Hierarchy level of the rows (0 = dataset view, +1 per read of a FOLDER).")
        .def_prop_ro(
            "format", [](const DataFrame& df) { return std::string(to_string(df.format())); },
            "Container of the dataset: \"zip\" or \"folder\".")
        .def(
            "value",
            [](const DataFrame& df, size_t row, const std::string& column) {
                return from_value(df.value(row, column));
            },
            "row"_a, "column"_a, "One cell as a Python value (IndexError for a bad row or column).")
        .def("position_of", &DataFrame::position_of, "id"_a,
             "Row of the first sample with this id (TacoNavigationError if none).")
        .def("read", &read_key<int64_t>, "key"_a,
             "FILE row -> its GDAL VSI path; FOLDER row -> a DataFrame of its children.")
        .def("read", &read_key<std::string_view>, "key"_a,
             "FILE row -> its GDAL VSI path; FOLDER row -> a DataFrame of its children.")
        .def("read_bytes", &read_bytes_at, "key"_a, "The exact bytes of a FILE sample.")
        .def("read_bytes", &read_bytes_of, "key"_a, "The exact bytes of a FILE sample.")
        .def("read_bytes_many", &read_bytes_many, "keys"_a, "threads"_a = 0,
             "The bytes of many FILE samples, in order, read on native threads (0: all cores).")
        .def("byte_size", nb::overload_cast<int64_t>(&DataFrame::byte_size, nb::const_), "key"_a,
             "Size in bytes of a FILE sample (nothing is read).")
        .def("byte_size", nb::overload_cast<std::string_view>(&DataFrame::byte_size, nb::const_),
             "key"_a, "Size in bytes of a FILE sample (nothing is read).");

    nb::class_<Dataset>(m, "Dataset",
                        "A loaded TACO dataset: collection metadata and lazy SQL views.")
        .def_prop_ro("id", &Dataset::id, "COLLECTION id.")
        .def_prop_ro("version", &Dataset::version,
                     "COLLECTION dataset_version (\"unknown\" if absent).")
        .def_prop_ro("description", &Dataset::description, "COLLECTION description.")
        .def_prop_ro("taco_version", &Dataset::taco_version, "COLLECTION taco_version.")
        .def_prop_ro("tasks", &Dataset::tasks, "COLLECTION tasks.")
        .def_prop_ro("licenses", &Dataset::licenses, "COLLECTION licenses.")
        .def_prop_ro(
            "providers", [](const Dataset& d) { return contacts(d.providers()); },
            "COLLECTION providers as dicts.")
        .def_prop_ro(
            "curators",
            [](const Dataset& d) -> nb::object {
                return d.curators() ? nb::object(contacts(*d.curators())) : nb::none();
            },
            "COLLECTION curators as dicts, or None.")
        .def_prop_ro("title", &Dataset::title, "COLLECTION title, or None.")
        .def_prop_ro("keywords", &Dataset::keywords, "COLLECTION keywords, or None.")
        .def_prop_ro("collection_json", &Dataset::collection_json,
                     "COLLECTION.json exactly as stored.")
        .def_prop_ro(
            "path", [](const Dataset& d) { return fs_str(d.path()); },
            "The path given to load(); \"<concatenated>\" for concat().")
        .def_prop_ro(
            "sources",
            [](const Dataset& d) {
                nb::list out;
                for (const auto& p : d.sources()) out.append(fs_str(p));
                return out;
            },
            "The files behind the dataset (several for concat()).")
        .def_prop_ro(
            "format", [](const Dataset& d) { return std::string(to_string(d.format())); },
            "\"zip\" or \"folder\".")
        .def_prop_ro("is_collection", &Dataset::is_collection,
                     "Rows of a collection (.tacocat / __TACOCAT__), alone or in a concat().")
        .def_prop_ro("missing_parts", &Dataset::missing_parts,
                     "A collection's parts not found at load (paths); their samples cannot be "
                     "read.")
        .def_prop_ro("level_count", &Dataset::level_count,
                     "Number of level tables (level0 .. levelN-1).")
        .def_prop_ro("query", &Dataset::query, "The SQL of the current view.")
        .def("sql", &Dataset::sql, "query"_a, "A new lazy view; `data` names the current one.")
        .def("level", &Dataset::level, "index"_a, "The view of level `index` (padding hidden).")
        .def(
            "columns",
            [](const Dataset& d) {
                const std::vector<ColumnType> cols =
                    call_interruptible([&] { return d.columns(); }, [&] { d.interrupt(); });
                std::vector<std::pair<std::string, std::string>> out;
                for (const auto& c : cols) out.emplace_back(c.name, c.type.arrow_name());
                return out;
            },
            "[(column, Arrow type name)] of the view, without running it.")
        // Queries may run long: Ctrl-C interrupts them (interruptible.hpp).
        .def(
            "count",
            [](const Dataset& d) {
                return call_interruptible([&] { return d.count(); }, [&] { d.interrupt(); });
            },
            "Rows of the view.")
        .def(
            "data",
            [](const Dataset& d) {
                return call_interruptible([&] { return d.data(); }, [&] { d.interrupt(); });
            },
            "Runs the view; internal:* columns except internal:gdal_vsi are dropped.")
        .def(
            "data_raw",
            [](const Dataset& d) {
                return call_interruptible([&] { return d.data_raw(); }, [&] { d.interrupt(); });
            },
            "Runs the view keeping every column.")
        .def("interrupt", &Dataset::interrupt,
             "Stops the query running on this dataset's session (from another thread).")
        .def("close", &Dataset::close,
             "Every later read of this dataset, its views and their frames raises "
             "TacoQueryError (\"... is closed\").")
        .def_prop_ro("closed", &Dataset::closed,
                     "True after close() of this dataset or of one it was made from.");

    m.def(
        "load",
        [](const std::filesystem::path& path, bool sandbox, double timeout,
           const std::string& memory_limit, const std::filesystem::path& base_path) {
            LoadOptions options;
            options.sandbox = sandbox;
            options.timeout = timeout;
            options.memory_limit = memory_limit;
            options.base_path = base_path.string();
            return load(path.string(), options);
        },
        "path"_a, "sandbox"_a = false, "timeout"_a = 0.0, "memory_limit"_a = "", "base_path"_a = "",
        nb::call_guard<GilRelease>(),
        "Opens a TACO dataset (ZIP, FOLDER or a collection index); sandbox/timeout/memory_limit/"
        "base_path as taco::LoadOptions.");

    m.def("read_fast", &read_fast, "frame"_a, "link"_a, "fallback"_a, "key"_a.none(),
          "DataFrame.read's general path (read_method hands it what it does not answer; not an "
          "API).");

    m.def(
        "concat",
        [](const std::vector<Dataset>& datasets, const std::string& column_mode) {
            const ColumnMode mode = parse_column_mode(column_mode);
            GilRelease release;
            return concat(datasets, mode);
        },
        "datasets"_a, "column_mode"_a = "intersection",
        "One dataset whose levels are the unions of the inputs' levels (views stay lazy).");

    m.def(
        "validate",
        [](const std::filesystem::path& path) {
            ValidationReport report;
            {
                GilRelease release;
                report = validate(path);
            }
            nb::list findings;
            for (const auto& f : report.findings) {
                nb::dict d;
                d["severity"] = std::string(to_string(f.severity));
                d["code"] = f.code;
                // Findings may quote a path that is not UTF-8: escaped, as in exceptions.
                d["location"] = paths::display_text(f.location);
                d["message"] = paths::display_text(f.message);
                findings.append(d);
            }
            return findings;
        },
        "path"_a,
        "Full compliance report: a list of findings (severity, code, location, message).");
}

}  // namespace taco::py
