// Every metadata type the spec allows round-trips (issue 18 item 1): structs, lists of structs,
// maps, fixed-size lists, decimals, dates and timestamps with a zone are written as themselves
// and read back with the same type and value (not as their text); the nesting limit holds at
// write and at read (item 2).
#include <gtest/gtest.h>

#include "metadata/duckdb_session.hpp"
#include "metadata/result_table.hpp"
#include "reader_test_util.hpp"

using namespace taco;
using namespace taco::test;

namespace {

DataType inner_struct() {
    return DataType::structure({{"a", DataType::list(DataType::int64())},
                                {"b", DataType::structure({{"c", DataType::string()}})}});
}

Value inner_value(int64_t x, const std::string& c) {
    return Value::structure(inner_struct(),
                            {Value::list({Value(static_cast<long long>(x)), Value(2LL)}),
                             Value::structure({{"c", Value(c)}})});
}

// One sample per row: every field of every nested type, the second sample with nulls inside.
Taco nested_taco() {
    const DataType map_type = DataType::map(DataType::string(), DataType::int64());
    const DataType vec3 = DataType::fixed_list(DataType::float32(), 3);
    const DataType money = DataType::decimal(12, 3);
    std::vector<Sample> samples;
    for (int i = 0; i < 2; ++i) {
        Sample s = Sample::bytes("s" + std::to_string(i), sample_bytes("s" + std::to_string(i)));
        s.set("n", Value::list(inner_struct(), {inner_value(i, "x"), inner_value(10 + i, "y")}));
        s.set("tags", Value::map(map_type, {{Value("k"), Value(1LL)},
                                            {Value("z"), i ? Value::null() : Value(7LL)}}));
        s.set("vec", Value::fixed_list(vec3, {Value(1.5f), Value(-2.0f), Value(0.25f)}));
        s.set("price", Value::decimal(money, i ? "-0.5" : "123456789.125"));
        s.set("day", Value::date(19'000 + i));
        s.set("seen", Value::timestamp_tz(1'700'000'000'000'000LL + i));
        s.set("maybe", i ? Value::null(inner_struct()) : inner_value(3, "m"));
        samples.push_back(std::move(s));
    }
    return Taco(Tortilla(std::move(samples)), test_collection("nested_types"));
}

const ColumnType* column(const std::vector<ColumnType>& cols, const std::string& name) {
    for (const auto& c : cols)
        if (c.name == name) return &c;
    return nullptr;
}

}  // namespace

TEST(NestedTypes, NamesSayTheRealType) {
    EXPECT_EQ(DataType::list(inner_struct()).arrow_name(),
              "list<item: struct<a: list<item: int64>, b: struct<c: string>>>");
    EXPECT_EQ(DataType::map(DataType::string(), DataType::int64()).arrow_name(),
              "map<string, int64>");
    EXPECT_EQ(DataType::fixed_list(DataType::float32(), 3).arrow_name(),
              "fixed_size_list<item: float>[3]");
    EXPECT_EQ(DataType::decimal(12, 3).arrow_name(), "decimal128(12, 3)");
    EXPECT_EQ(DataType::date().arrow_name(), "date32[day]");
    EXPECT_EQ(DataType::timestamp_tz().arrow_name(), "timestamp[us, tz=UTC]");
    EXPECT_EQ(inner_struct().sql_name(), "STRUCT(\"a\" BIGINT[], \"b\" STRUCT(\"c\" VARCHAR))");
    // Interned: the same shape is the same type.
    EXPECT_EQ(inner_struct(), inner_struct());
    EXPECT_NE(DataType::decimal(12, 3), DataType::decimal(12, 2));
}

TEST(NestedTypes, DecimalsKeepEveryDigitAndRefuseWhatDoesNotFit) {
    const DataType t = DataType::decimal(5, 2);
    EXPECT_EQ(Value::decimal(t, "1.5").as_string(), "1.50");
    EXPECT_EQ(Value::decimal(t, "-000.10").as_string(), "-0.10");
    EXPECT_TRUE(contains(error_of<SchemaError>([&] { Value::decimal(t, "1234.5"); }), "5 digits"));
    EXPECT_TRUE(
        contains(error_of<SchemaError>([&] { Value::decimal(t, "1.234"); }), "fractional digits"));
    EXPECT_TRUE(
        contains(error_of<SchemaError>([&] { Value::decimal(t, "1e3"); }), "not a decimal"));
    DataType wide;
    ASSERT_TRUE(DataType::unify(DataType::decimal(5, 2), DataType::decimal(4, 3), wide));
    EXPECT_EQ(wide, DataType::decimal(6, 3));
}

TEST(NestedTypes, WriteThenReadGivesTheSameTypesAndValues) {
    TempDir dir;
    const Taco taco = nested_taco();
    for (const char* name : {"n.tacozip", "n_folder"}) {
        SCOPED_TRACE(name);
        create(taco, dir / name);
        const Dataset ds = load(dir / name);
        const DataFrame df = ds.data();
        ASSERT_EQ(df.rows(), 2u);
        for (const auto& field : taco.root().samples()[0].fields()) {
            SCOPED_TRACE(field.name);
            const ColumnType* c = column(df.schema(), field.name);
            ASSERT_NE(c, nullptr);
            // Parquet has no fixed-size list: one is stored, and read back, as a list.
            const bool fixed = field.value.type().id() == TypeId::FixedList;
            EXPECT_EQ(c->type.arrow_name(),
                      fixed ? DataType::list(field.value.type().element()).arrow_name()
                            : field.value.type().arrow_name());
            for (size_t r = 0; r < 2; ++r) {
                const Value* want = taco.root().samples()[r].get(field.name);
                EXPECT_EQ(df.value(r, field.name).to_display(), want->to_display());
            }
        }
        // Nested values are queryable as themselves, not as text.
        const DataFrame q =
            ds.sql(
                  "SELECT n[2].b.c AS c, tags['k'] AS k, vec[3] AS v3, price * 2 AS p2, "
                  "year(day) AS y FROM data ORDER BY id")
                .data();
        EXPECT_EQ(q.value(0, "c").as_string(), "y");
        EXPECT_EQ(q.value(1, "k").as_int(), 1);
        EXPECT_EQ(q.value(0, "v3").as_double(), 0.25);
        EXPECT_EQ(q.value(0, "p2").as_string(), "246913578.250");
        EXPECT_EQ(q.value(0, "y").as_int(), 2022);
    }
}

TEST(NestedTypes, NestingLimitAtWriteAndAtRead) {
    // At write: building a type deeper than the limit is a SchemaError.
    DataType t = DataType::int64();
    for (int i = 0; i < kMaxNestingDepth; ++i) t = DataType::list(t);
    EXPECT_EQ(t.depth(), kMaxNestingDepth);
    EXPECT_TRUE(contains(error_of<SchemaError>([&] { DataType::list(t); }), "the limit is 64"));
    Value v(1LL);
    for (int i = 0; i < kMaxNestingDepth; ++i) v = Value::list({v});
    EXPECT_TRUE(contains(error_of<SchemaError>([&] { Value::list({v}); }), "levels deep"));

    // At read: a Parquet file written by another tool with a deeper column is refused clearly.
    TempDir dir;
    metadata::DuckSession db;
    std::string expr = "1";
    for (int i = 0; i < kMaxNestingDepth + 1; ++i) expr = "[" + expr + "]";
    const std::string path = (dir / "deep.parquet").string();
    db.exec("COPY (SELECT " + expr + " AS deep) TO '" + path + "' (FORMAT parquet)");
    const std::string message = error_of<SchemaError>(
        [&] { metadata::ResultTable::fetch(db, "SELECT * FROM read_parquet('" + path + "')"); });
    EXPECT_TRUE(contains(message, "column 'deep'")) << message;
    EXPECT_TRUE(contains(message, "the limit is 64")) << message;
}

// Parquet written through DuckDB has no null type: whatever no value typed, an all-null column,
// the element of lists that are all empty, a struct field null everywhere, is stored as string
// (docs/FORMAT-DECISIONS.md). A column of empty lists used to fail in the writer ("does not fit
// the column type string").
TEST(NestedTypes, UntypedPartsAreStoredAsStringEverywhereTheyNest) {
    TempDir dir;
    std::vector<Sample> samples;
    for (int i = 0; i < 2; ++i) {
        Sample s = Sample::bytes("s" + std::to_string(i), sample_bytes("s" + std::to_string(i)));
        s.set("empty", Value::list({}));
        s.set("holes", Value::list({Value(), Value()}));
        s.set("half", Value::structure({{"a", Value()}, {"b", Value(1LL)}}));
        s.set("none", Value());
        samples.push_back(std::move(s));
    }
    const Taco taco(Tortilla(std::move(samples)), test_collection("untyped"));
    for (const char* name : {"u.tacozip", "u_folder"}) {
        SCOPED_TRACE(name);
        create(taco, dir / name);
        const DataFrame df = load(dir / name).data();
        ASSERT_EQ(df.rows(), 2u);
        EXPECT_EQ(column(df.schema(), "empty")->type.arrow_name(), "list<item: string>");
        EXPECT_EQ(column(df.schema(), "holes")->type.arrow_name(), "list<item: string>");
        EXPECT_EQ(column(df.schema(), "half")->type.arrow_name(), "struct<a: string, b: int64>");
        EXPECT_EQ(column(df.schema(), "none")->type.arrow_name(), "string");
        EXPECT_TRUE(df.value(1, "empty").as_list().empty());
        EXPECT_EQ(df.value(0, "holes").as_list().size(), 2u);
        EXPECT_TRUE(df.value(0, "holes").as_list()[1].is_null());
        EXPECT_TRUE(df.value(0, "none").is_null());
    }
}
