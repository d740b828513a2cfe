// The writing extensions (taco::ext: STAC, ISTAC, Scaling, Split; OpticalData, Labels,
// Publications, SplitStrategy) for tacocore._core. The
// Python classes with tacotoolbox's names and arguments live in tacocore/_extensions.py; here
// each returns the typed columns as an ExtensionFields, applied to a sample as they are (typed
// nulls included, which a Python None cannot carry).
#include <nanobind/stl/array.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "arrow_row.hpp"
#include "metadata/arrow_c.hpp"
#include "py_common.hpp"
#include "taco/errors.hpp"
#include "taco/extensions.hpp"
#include "taco/sample.hpp"

namespace taco::py {

using namespace nb::literals;

namespace {

struct ExtensionFields {
    std::vector<Field> fields;
};

}  // namespace

void bind_extensions(nb::module_& m) {
    nb::class_<ExtensionFields>(m, "ExtensionFields",
                                "Typed extension columns, ready to be added to a sample.")
        .def_prop_ro(
            "names",
            [](const ExtensionFields& f) {
                std::vector<std::string> out;
                for (const auto& x : f.fields) out.push_back(x.name);
                return out;
            },
            "Column names, in order.")
        .def_prop_ro(
            "arrow_types",
            [](const ExtensionFields& f) {
                std::vector<std::string> out;
                for (const auto& x : f.fields) out.push_back(x.value.type().arrow_name());
                return out;
            },
            "Column types as pyarrow spells them, in order.")
        .def(
            "to_dict",
            [](const ExtensionFields& f) {
                nb::dict d;
                for (const auto& x : f.fields) d[x.name.c_str()] = from_value(x.value);
                return d;
            },
            "{column: value} (timestamps as naive UTC datetimes).")
        .def(
            "apply", [](const ExtensionFields& f, Sample& s) { s.extend_with(f.fields); },
            "sample"_a, "Adds (or replaces) these columns on a native sample.");

    m.def(
        "ext_stac",
        [](const std::string& sample_id, std::string crs, std::vector<int64_t> shape,
           std::vector<double> geotransform, std::optional<int64_t> t0, std::optional<int64_t> t1,
           std::optional<int64_t> tm, std::optional<nb::bytes> centroid) {
            ext::Stac s{std::move(crs), std::move(shape), std::move(geotransform), t0, t1, tm,
                        std::nullopt};
            if (centroid) s.centroid = std::string(centroid->c_str(), centroid->size());
            return ExtensionFields{ext::fields(s, sample_id)};
        },
        "sample_id"_a, "crs"_a, "tensor_shape"_a, "geotransform"_a, "time_start"_a.none(),
        "time_end"_a.none(), "time_middle"_a.none(), "centroid"_a.none(),
        "The stac:* columns (taco::ext::Stac); SchemaError names the sample and field.");
    m.def(
        "ext_istac",
        [](const std::string& sample_id, std::string crs, nb::bytes geometry, int64_t t0,
           std::optional<int64_t> t1, std::optional<int64_t> tm,
           std::optional<nb::bytes> centroid) {
            ext::Istac s{std::move(crs), std::string(geometry.c_str(), geometry.size()), t0, t1, tm,
                         std::nullopt};
            if (centroid) s.centroid = std::string(centroid->c_str(), centroid->size());
            return ExtensionFields{ext::fields(s, sample_id)};
        },
        "sample_id"_a, "crs"_a, "geometry"_a, "time_start"_a, "time_end"_a.none(),
        "time_middle"_a.none(), "centroid"_a.none(),
        "The istac:* columns (taco::ext::Istac); SchemaError names the sample and field.");
    m.def(
        "ext_scaling",
        [](const std::string& sample_id, bool per_band, std::vector<float> factor,
           std::vector<float> offset, std::optional<std::array<int32_t, 4>> padding) {
            ext::Scaling s{per_band, std::move(factor), std::move(offset), padding};
            return ExtensionFields{ext::fields(s, sample_id)};
        },
        "sample_id"_a, "per_band"_a, "scale_factor"_a, "scale_offset"_a, "padding"_a.none(),
        "The scaling:* columns (taco::ext::Scaling).");
    m.def(
        "ext_split",
        [](const std::string& sample_id, const std::string& split) {
            return ExtensionFields{ext::split_fields(split, sample_id)};
        },
        "sample_id"_a, "split"_a, "The split column (taco::ext::split_fields).");
    m.def(
        "ext_from_row",
        [](const std::string& sample_id, std::vector<std::string> names, nb::handle stream_capsule,
           nb::callable value_of) {
            // Only declined columns are asked for, so a row pays pyarrow's scalars for those alone.
            // Every column the native reader takes is read by it (arrow_row.cpp), so a column
            // has one type whichever path its row takes; only the others convert `values`.
            std::optional<std::vector<std::optional<Value>>> cells;
            if (!stream_capsule.is_none()) {
                auto* stream = static_cast<ArrowArrayStream*>(
                    PyCapsule_GetPointer(stream_capsule.ptr(), "arrow_array_stream"));
                if (stream == nullptr) throw nb::python_error();
                cells = arrow_row_cells(stream);
            }
            if (cells && cells->size() != names.size())
                throw SchemaError("ext_from_row: names and stream differ in length");
            ExtensionFields out;
            for (size_t i = 0; i < names.size(); ++i) {
                if (cells && (*cells)[i]) {
                    out.fields.push_back({names[i], std::move(*(*cells)[i])});
                    continue;
                }
                nb::object v = value_of(i);
                // A value the reader declined: converting it reports what is wrong with it.
                Value value =
                    v.is_none()
                        ? Value()
                        : to_value(v, "sample '" + sample_id + "' field '" + names[i] + "'");
                out.fields.push_back({names[i], std::move(value)});
            }
            return out;
        },
        "sample_id"_a, "names"_a, "stream"_a.none(), "value_of"_a,
        "Columns of the one row of an Arrow C stream capsule: those the native reader takes read "
        "from it, the others from `value_of(i)` (column i's Python value, asked for those only); "
        "every column from `value_of` when the stream is None (a None value then an untyped "
        "null).");

    m.def(
        "extend_from_arrow",
        [](Sample& sample, nb::handle capsule) {
            auto* stream = static_cast<ArrowArrayStream*>(
                PyCapsule_GetPointer(capsule.ptr(), "arrow_array_stream"));
            if (stream == nullptr) throw nb::python_error();
            auto fields = arrow_row_fields(stream);
            if (!fields) return false;
            sample.extend_with(std::move(*fields));
            return true;
        },
        "sample"_a, "stream"_a,
        "Adds the one row of an Arrow C stream capsule (a 1-row pyarrow Table's "
        "__arrow_c_stream__()) as typed columns; False, with nothing added, when its types are "
        "left to the Python path (_toolbox._arrow_fields).");
    m.def(
        "extend_rows_from_arrow",
        [](const std::vector<Sample*>& samples, nb::handle capsule) {
            auto* stream = static_cast<ArrowArrayStream*>(
                PyCapsule_GetPointer(capsule.ptr(), "arrow_array_stream"));
            if (stream == nullptr) throw nb::python_error();
            // Every row is read before any is applied: on False no sample has changed.
            auto rows = arrow_rows_fields(stream, samples.size());
            if (!rows) return false;
            for (size_t i = 0; i < samples.size(); ++i) {
                samples[i]->extend_with(std::move((*rows)[i]));
            }
            return true;
        },
        "samples"_a, "stream"_a,
        "Adds row i of an Arrow C stream capsule to samples[i], as extend_from_arrow adds one "
        "row (the deferred 1-row tables of _toolbox.Sample.extend_with, concatenated); False, "
        "with nothing added, when the rows are left to the one-sample path.");

    // TACO-level extensions: the keys are made and checked in C++ (src/ext/taco_extensions.cpp)
    // and the band tables read from the library's one copy; Python only shapes the arguments.
    m.def(
        "taco_extension_fields",
        [](const std::string& extension, const std::string& arguments_json) {
            return ext::collection_fields_from_json(extension, arguments_json);
        },
        "extension"_a, "arguments_json"_a,
        "[(key, JSON text)] of a TACO-level extension (OpticalData, Labels, Publications, "
        "SplitStrategy) from tacotoolbox's constructor arguments as a JSON object.");
    m.def(
        "sensor_bands_json", [] { return std::string(ext::sensor_bands_json()); },
        "tacotoolbox's sensor band tables as JSON (the copy compiled into the library).");
    m.def(
        "supported_sensors", [] { return ext::supported_sensors(); },
        "The sensors OpticalData knows, in tacotoolbox's order.");
}

}  // namespace taco::py
