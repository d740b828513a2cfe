// Python's str() of metadata values (model::python_str): what tacotoolbox names group_by parts
// with, checked against what CPython prints for the objects pyarrow's to_pylist() returns.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "model/python_str.hpp"

using namespace taco;
using model::python_str;

TEST(PythonStr, FloatsAsReprPrintsThem) {
    EXPECT_EQ(python_str(Value(100.0)), "100.0");
    EXPECT_EQ(python_str(Value(1e-07)), "1e-07");
    EXPECT_EQ(python_str(Value(0.0001)), "0.0001");
    EXPECT_EQ(python_str(Value(0.00001)), "1e-05");
    EXPECT_EQ(python_str(Value(0.1)), "0.1");
    EXPECT_EQ(python_str(Value(-2.5)), "-2.5");
    EXPECT_EQ(python_str(Value(1e15)), "1000000000000000.0");
    EXPECT_EQ(python_str(Value(1e16)), "1e+16");
    EXPECT_EQ(python_str(Value(1.5e300)), "1.5e+300");
    EXPECT_EQ(python_str(Value(123456.789)), "123456.789");
    EXPECT_EQ(python_str(Value(0.0)), "0.0");
    EXPECT_EQ(python_str(Value(-0.0)), "-0.0");
    EXPECT_EQ(python_str(Value(std::numeric_limits<double>::quiet_NaN())), "nan");
    EXPECT_EQ(python_str(Value(-std::numeric_limits<double>::infinity())), "-inf");
    // A float32 is widened to a double by pyarrow before Python prints it.
    EXPECT_EQ(python_str(Value(0.1f)), "0.10000000149011612");
}

TEST(PythonStr, OtherScalars) {
    EXPECT_EQ(python_str(Value(true)), "True");
    EXPECT_EQ(python_str(Value(int64_t{-7})), "-7");
    EXPECT_EQ(python_str(Value("forest")), "forest");
    EXPECT_EQ(python_str(Value::null()), "None");
    EXPECT_EQ(python_str(Value::binary("ab")), "b'ab'");
    EXPECT_EQ(python_str(Value::binary(std::string("\x00\xff'", 3))), "b\"\\x00\\xff'\"");
    EXPECT_EQ(python_str(Value::binary("a\\b\n")), "b'a\\\\b\\n'");
    EXPECT_EQ(python_str(Value::timestamp(1577836800000000)), "2020-01-01 00:00:00");
    EXPECT_EQ(python_str(Value::timestamp(1577836800500000)), "2020-01-01 00:00:00.500000");
    EXPECT_EQ(python_str(Value::timestamp_tz(1577836800000000)), "2020-01-01 00:00:00+00:00");
    EXPECT_EQ(python_str(Value::date(18262)), "2020-01-01");
}

TEST(PythonStr, NestedValuesAsPythonPrintsListsAndDicts) {
    const Value list = Value::list(DataType::string(), {Value("a"), Value("it's")});
    EXPECT_EQ(python_str(list), "['a', \"it's\"]");
    const Value nums =
        Value::list(DataType::float64(), {Value(1.0), Value::null(DataType::float64())});
    EXPECT_EQ(python_str(nums), "[1.0, None]");
    const Value st = Value::structure({{"a", Value(int64_t{1})}, {"b", Value("x")}});
    EXPECT_EQ(python_str(st), "{'a': 1, 'b': 'x'}");
}
