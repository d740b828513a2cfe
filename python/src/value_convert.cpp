// Python object <-> taco::Value, following the reference's type inference (FORMAT.md §4.6):
// int -> int64, float -> double, str -> string, bytes -> binary, bool -> bool,
// datetime -> timestamp[us] (naive) or timestamp[us, tz=UTC] (aware), list -> list<T>; numpy keeps
// its precision (float32 -> float, int32 -> int32). Beyond the reference: dict (str keys) ->
// struct, decimal.Decimal -> decimal128(p, s). Read back: date32 -> date, timestamp with zone ->
// aware datetime (UTC), decimal -> Decimal, struct -> dict, map -> list of (key, value) tuples as
// pyarrow's to_pylist() gives them, fixed-size list -> list.
#include <nanobind/stl/string.h>

#include <algorithm>
#include <limits>
#include <vector>

#include "model/time_format.hpp"
#include "py_common.hpp"
#include "taco/errors.hpp"

namespace taco::py {
using namespace nb::literals;
namespace {

struct PyTypes {
    nb::object datetime, date, timedelta, timezone_utc, ndarray, generic, decimal;
};

// How deep the value being converted nests: a Python list 100,000 deep would otherwise overflow
// the C stack (a crash of the interpreter) instead of raising.
thread_local int conversion_depth = 0;

struct DepthGuard {
    explicit DepthGuard(const std::string& what) {
        if (++conversion_depth > kMaxNestingDepth) {
            --conversion_depth;
            throw SchemaError(what + ": value nested more than " +
                              std::to_string(kMaxNestingDepth) +
                              " levels deep (lists and dicts each count one level)");
        }
    }
    ~DepthGuard() { --conversion_depth; }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;
};

const PyTypes& types() {
    static PyTypes t = [] {
        PyTypes r;
        nb::module_ dt = nb::module_::import_("datetime");
        r.datetime = dt.attr("datetime");
        r.date = dt.attr("date");
        r.timedelta = dt.attr("timedelta");
        r.timezone_utc = dt.attr("timezone").attr("utc");
        nb::module_ np = nb::module_::import_("numpy");
        r.ndarray = np.attr("ndarray");
        r.generic = np.attr("generic");
        r.decimal = nb::module_::import_("decimal").attr("Decimal");
        return r;
    }();
    return t;
}

int64_t attr_int(nb::handle obj, const char* name) {
    return nb::cast<int64_t>(obj.attr(name));
}

// A datetime as microseconds since the epoch: a naive one is a wall time (timestamp[us]), an
// aware one an instant (timestamp[us, tz=UTC]), as pyarrow infers them and so tacotoolbox writes
// them; before, an aware one lost being an instant (written as its UTC wall time, no zone).
Value datetime_value(nb::handle obj) {
    int64_t micros = model::micros_from_civil(
        attr_int(obj, "year"), static_cast<unsigned>(attr_int(obj, "month")),
        static_cast<unsigned>(attr_int(obj, "day")), attr_int(obj, "hour"), attr_int(obj, "minute"),
        attr_int(obj, "second"), attr_int(obj, "microsecond"));
    nb::object offset = obj.attr("utcoffset")();
    if (offset.is_none()) return Value::timestamp(micros);
    micros -= (attr_int(offset, "days") * 86400 + attr_int(offset, "seconds")) * 1000000 +
              attr_int(offset, "microseconds");
    return Value::timestamp_tz(micros);
}

// [1, 2.5] is a list of doubles, as pyarrow infers it (tacotoolbox writes it so): ints among
// floats become doubles. Any other mix stays a SchemaError (Value::list).
void promote_ints_among_floats(Value::List& items) {
    bool ints = false, floats = false;
    for (const Value& v : items) {
        if (v.is_null()) continue;
        const TypeId t = v.type().id();
        if (t == TypeId::Int64)
            ints = true;
        else if (t == TypeId::Float64)
            floats = true;
        else
            return;
    }
    if (!ints || !floats) return;
    for (Value& v : items)
        if (!v.is_null() && v.type().id() == TypeId::Int64)
            v = Value(static_cast<double>(v.as_int()));
}

// A list of the converted items; a refusal (elements of types no one type holds) names the
// sample and field, as every other value error here does.
Value list_value(const std::string& what, DataType element, Value::List items) {
    try {
        return Value::list(std::move(element), std::move(items));
    } catch (const SchemaError& e) {
        throw SchemaError(what + ": " + e.what());
    }
}

Value numpy_value(nb::handle obj, const std::string& what) {
    nb::object dtype = obj.attr("dtype");
    std::string kind = nb::cast<std::string>(dtype.attr("kind"));
    int64_t itemsize = nb::cast<int64_t>(dtype.attr("itemsize"));
    if (nb::isinstance(obj, types().ndarray)) {
        DepthGuard guard(what);
        int64_t ndim = nb::cast<int64_t>(obj.attr("ndim"));
        if (ndim == 0) return numpy_value(obj[nb::make_tuple()], what);
        Value::List items;
        nb::object seq = nb::list(obj);  // first axis; deeper axes recurse as arrays
        for (nb::handle item : seq) items.push_back(to_value(item, what));
        DataType elem;
        if (ndim == 1) {
            if (kind == "f")
                elem = itemsize == 4 ? DataType::float32() : DataType::float64();
            else if (kind == "i" || kind == "u")
                elem = itemsize <= 4 && kind == "i" ? DataType::int32() : DataType::int64();
            else if (kind == "b")
                elem = DataType::boolean();
        }
        return list_value(what, elem, std::move(items));
    }
    nb::object py = obj.attr("item")();
    if (kind == "f")
        return itemsize == 4 ? Value(nb::cast<float>(py)) : Value(nb::cast<double>(py));
    if (kind == "i" && itemsize <= 4) return Value::int32(nb::cast<int32_t>(py));
    // Other integers as the Python int they are: int64, or a SchemaError naming a uint64 value
    // beyond it (a bare std::bad_cast before).
    if (kind == "i" || kind == "u") return to_value(py, what);
    if (kind == "b") return Value(nb::cast<bool>(py));
    if (kind == "M") {
        nb::object us = obj.attr("astype")("datetime64[us]").attr("astype")("int64");
        const int64_t micros = nb::cast<int64_t>(us);
        // NaT (numpy's smallest int64) is a missing time, as pyarrow reads it, not a time.
        if (micros == std::numeric_limits<int64_t>::min())
            return Value::null(DataType::timestamp());
        return Value::timestamp(micros);
    }
    return to_value(py, what);
}

}  // namespace

Value to_value(nb::handle obj, const std::string& what) {
    if (obj.is_none()) return Value();
    if (PyBool_Check(obj.ptr())) return Value(obj.ptr() == Py_True);
    if (PyLong_Check(obj.ptr())) {
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(obj.ptr(), &overflow);
        if (overflow)
            throw SchemaError(what + ": integer " + nb::cast<std::string>(nb::str(obj)) +
                              " does not fit in int64");
        return Value(v);
    }
    if (PyFloat_Check(obj.ptr())) return Value(PyFloat_AsDouble(obj.ptr()));
    if (PyUnicode_Check(obj.ptr())) {
        Py_ssize_t n = 0;
        const char* s = PyUnicode_AsUTF8AndSize(obj.ptr(), &n);
        if (!s) throw nb::python_error();
        return Value(std::string(s, static_cast<size_t>(n)));
    }
    if (PyBytes_Check(obj.ptr()) || PyByteArray_Check(obj.ptr()) || PyMemoryView_Check(obj.ptr())) {
        nb::object b = nb::steal(PyBytes_FromObject(obj.ptr()));
        if (!b) throw nb::python_error();
        return Value::binary(std::string(PyBytes_AS_STRING(b.ptr()),
                                         static_cast<size_t>(PyBytes_GET_SIZE(b.ptr()))));
    }
    if (PyList_Check(obj.ptr()) || PyTuple_Check(obj.ptr())) {
        DepthGuard guard(what);
        Value::List items;
        for (nb::handle item : obj) items.push_back(to_value(item, what));
        promote_ints_among_floats(items);
        return list_value(what, DataType::null(), std::move(items));
    }
    if (PyDict_Check(obj.ptr())) {
        DepthGuard guard(what);
        std::vector<std::pair<std::string, Value>> fields;
        for (auto [key, item] : nb::borrow<nb::dict>(obj)) {
            if (!PyUnicode_Check(key.ptr()))
                throw SchemaError(what +
                                  ": a dict value becomes a struct, and its keys must be "
                                  "str, not " +
                                  nb::cast<std::string>(nb::repr(key)));
            std::string name = nb::cast<std::string>(key);
            fields.emplace_back(name, to_value(item, what + "." + name));
        }
        if (fields.empty())
            throw SchemaError(what + ": an empty dict has no fields to make a struct of");
        return Value::structure(std::move(fields));
    }
    const PyTypes& t = types();
    if (nb::isinstance(obj, t.decimal)) {
        if (!nb::cast<bool>(obj.attr("is_finite")()))
            throw SchemaError(what + ": decimal " + nb::cast<std::string>(nb::str(obj)) +
                              " is not finite");
        nb::object parts = obj.attr("as_tuple")();
        nb::object digit_tuple = parts.attr("digits");
        const int digits = static_cast<int>(nb::len(digit_tuple));
        const int exponent = nb::cast<int>(parts.attr("exponent"));
        const int scale = exponent < 0 ? -exponent : 0;
        const int precision =
            std::max(exponent < 0 ? std::max(digits, scale) : digits + exponent, 1);
        if (precision > 38)
            throw SchemaError(what + ": decimal " + nb::cast<std::string>(nb::str(obj)) +
                              " needs " + std::to_string(precision) +
                              " digits; a decimal holds at most 38");
        std::string text =
            nb::cast<std::string>(nb::module_::import_("builtins").attr("format")(obj, "f"));
        return Value::decimal(DataType::decimal(precision, scale), text);
    }
    if (nb::isinstance(obj, t.datetime)) return datetime_value(obj);
    if (nb::isinstance(obj, t.date)) {
        // A date stays a date (date32), as tacotoolbox's pyarrow inference makes it; before, it
        // became a timestamp at midnight while a null of a date32 column kept the date type, so
        // a column with a missing date failed the Tortilla's schema check.
        constexpr int64_t kMicrosPerDay = int64_t{86'400} * 1'000'000;
        return Value::date(static_cast<int32_t>(
            model::micros_from_civil(attr_int(obj, "year"),
                                     static_cast<unsigned>(attr_int(obj, "month")),
                                     static_cast<unsigned>(attr_int(obj, "day")), 0, 0, 0, 0) /
            kMicrosPerDay));
    }
    if (nb::isinstance(obj, t.ndarray) || nb::isinstance(obj, t.generic))
        return numpy_value(obj, what);
    throw SchemaError(
        what + ": cannot store a value of Python type " +
        nb::cast<std::string>(
            nb::str(nb::handle(reinterpret_cast<PyObject*>(Py_TYPE(obj.ptr()))).attr("__name__"))) +
        " (expected None, bool, int, float, str, bytes, datetime, Decimal, a list, a dict or a "
        "numpy value)");
}

nb::object from_value(const Value& v) {
    if (v.is_null()) return nb::none();
    switch (v.type().id()) {
        case TypeId::Bool:
            return nb::bool_(v.as_bool());
        case TypeId::Int32:
        case TypeId::Int64:
            return nb::int_(v.as_int());
        case TypeId::Float32:
        case TypeId::Float64:
            return nb::float_(v.as_double());
        case TypeId::String:
            return nb::str(v.as_string().c_str(), v.as_string().size());
        case TypeId::Binary:
            return nb::bytes(v.as_string().data(), v.as_string().size());
        case TypeId::Timestamp: {
            const PyTypes& t = types();
            nb::object epoch = t.datetime(1970, 1, 1);
            return epoch + t.timedelta("microseconds"_a = v.as_int());
        }
        case TypeId::List:
        case TypeId::FixedList: {
            nb::list out;
            for (const auto& item : v.as_list()) out.append(from_value(item));
            return out;
        }
        case TypeId::Date: {
            const PyTypes& t = types();
            return t.date(1970, 1, 1) + t.timedelta("days"_a = v.as_int());
        }
        case TypeId::TimestampTz: {
            const PyTypes& t = types();
            nb::object epoch = t.datetime(1970, 1, 1, "tzinfo"_a = t.timezone_utc);
            return epoch + t.timedelta("microseconds"_a = v.as_int());
        }
        case TypeId::Decimal:
            return types().decimal(v.as_string());
        case TypeId::Struct: {
            nb::dict out;
            const auto& fields = v.as_list();
            for (size_t i = 0; i < fields.size(); ++i)
                out[nb::str(v.type().field_name(i).c_str())] = from_value(fields[i]);
            return out;
        }
        case TypeId::Map: {
            nb::list out;
            for (const auto& entry : v.as_list()) {
                const auto& kv = entry.as_list();
                out.append(nb::make_tuple(from_value(kv[0]), from_value(kv[1])));
            }
            return out;
        }
        case TypeId::Null:
            break;
    }
    return nb::none();
}

}  // namespace taco::py
