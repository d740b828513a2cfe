#include <gtest/gtest.h>

#include "taco/errors.hpp"
#include "taco/value.hpp"

using namespace taco;

TEST(DataType, ArrowNamesMatchPyarrow) {
    EXPECT_EQ(DataType::float64().arrow_name(), "double");
    EXPECT_EQ(DataType::float32().arrow_name(), "float");
    EXPECT_EQ(DataType::timestamp().arrow_name(), "timestamp[us]");
    EXPECT_EQ(DataType::list(DataType::int64()).arrow_name(), "list<item: int64>");
    EXPECT_EQ(DataType::list(DataType::list(DataType::float32())).arrow_name(),
              "list<item: list<item: float>>");
}

TEST(DataType, SqlNames) {
    EXPECT_EQ(DataType::list(DataType::list(DataType::float32())).sql_name(), "FLOAT[][]");
    EXPECT_EQ(DataType::binary().sql_name(), "BLOB");
    EXPECT_EQ(DataType::timestamp().sql_name(), "TIMESTAMP");
}

TEST(DataType, UnifyFillsUnknownParts) {
    DataType out;
    EXPECT_TRUE(DataType::unify(DataType::null(), DataType::int64(), out));
    EXPECT_EQ(out, DataType::int64());
    EXPECT_TRUE(DataType::unify(DataType::list(DataType::null()),
                                DataType::list(DataType::float64()), out));
    EXPECT_EQ(out, DataType::list(DataType::float64()));
    EXPECT_FALSE(DataType::unify(DataType::int64(), DataType::float64(), out));
    EXPECT_FALSE(DataType::unify(DataType::list(DataType::int64()), DataType::int64(), out));
}

TEST(Value, ConstructorsPickTypes) {
    EXPECT_EQ(Value(3).type(), DataType::int64());
    EXPECT_EQ(Value(3.5).type(), DataType::float64());
    EXPECT_EQ(Value(1.5f).type(), DataType::float32());
    EXPECT_EQ(Value(true).type(), DataType::boolean());
    EXPECT_EQ(Value("x").type(), DataType::string());
    EXPECT_EQ(Value::binary("\x01\x02").type(), DataType::binary());
    EXPECT_EQ(Value::timestamp(5).type(), DataType::timestamp());
    EXPECT_EQ(Value::int32(7).type(), DataType::int32());
    EXPECT_TRUE(Value().is_null());
    EXPECT_TRUE(Value::null(DataType::float64()).is_null());
    EXPECT_EQ(Value::null(DataType::float64()).type(), DataType::float64());
}

TEST(Value, ListInfersElementTypeAndRejectsMixes) {
    Value l = Value::list({Value(1), Value(), Value(3)});
    EXPECT_EQ(l.type(), DataType::list(DataType::int64()));
    EXPECT_EQ(l.as_list().size(), 3u);
    Value nested = Value::list({Value::list({Value(1.0f)}), Value::list(DataType::float32(), {})});
    EXPECT_EQ(nested.type(), DataType::list(DataType::list(DataType::float32())));
    try {
        Value::list({Value(1), Value("a")});
        FAIL() << "mixed list accepted";
    } catch (const SchemaError& e) {
        EXPECT_NE(std::string(e.what()).find("list element 1 has type string, expected int64"),
                  std::string::npos)
            << e.what();
    }
}

TEST(Value, AccessorsCheckTheType) {
    EXPECT_EQ(Value(42).as_int(), 42);
    EXPECT_THROW(Value(42).as_string(), SchemaError);
    EXPECT_EQ(Value::binary("ab").to_display(), "<2 bytes>");
    EXPECT_EQ(Value::list({Value(1), Value(2)}).to_display(), "[1, 2]");
}

// sample.set("n", vec.size()) must compile: unsigned integers are int64 values, refused above
// INT64_MAX rather than wrapped to a negative number.
TEST(Value, UnsignedIntegersAreInt64) {
    const std::vector<int> v(3);
    const taco::Value n(v.size());
    EXPECT_EQ(n.type(), taco::DataType::int64());
    EXPECT_EQ(n.as_int(), 3);
    EXPECT_EQ(taco::Value(7u).as_int(), 7);
    EXPECT_EQ(taco::Value(uint64_t{INT64_MAX}).as_int(), INT64_MAX);
    EXPECT_THROW(taco::Value(uint64_t{INT64_MAX} + 1), taco::SchemaError);
}
