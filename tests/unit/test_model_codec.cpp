// model_codec: Sample/Tortilla trees survive the encoding exactly (what pickling them for Dask
// workers relies on): every value type with its exact type, typed nulls, FILE paths and bytes,
// FOLDERs, padding; and a damaged encoding is refused with a clear error, never a crash.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <fstream>
#include <string>
#include <vector>

#include "model/model_codec.hpp"
#include "taco/errors.hpp"
#include "taco/sample.hpp"
#include "taco/tortilla.hpp"

using namespace taco;

#include "test_util.hpp"

using taco::test::contains;
using taco::test::error_of;
using taco::test::TempDir;

namespace {

void expect_same(const Sample& a, const Sample& b);

void expect_same(const Tortilla& a, const Tortilla& b) {
    ASSERT_EQ(a.size(), b.size());
    EXPECT_EQ(a.schema(), b.schema());
    EXPECT_EQ(a.depth(), b.depth());
    EXPECT_EQ(a.total_size(), b.total_size());
    for (size_t i = 0; i < a.size(); ++i) expect_same(a[i], b[i]);
}

void expect_same(const Sample& a, const Sample& b) {
    EXPECT_EQ(a.id(), b.id());
    EXPECT_EQ(a.type(), b.type());
    EXPECT_EQ(a.is_padding(), b.is_padding());
    EXPECT_EQ(a.path(), b.path());
    EXPECT_EQ(a.size(), b.size());
    EXPECT_EQ(a.memory() != nullptr, b.memory() != nullptr);
    if (a.memory() && b.memory()) {
        EXPECT_EQ(*a.memory(), *b.memory());
    }
    ASSERT_EQ(a.fields().size(), b.fields().size()) << a.id();
    for (size_t i = 0; i < a.fields().size(); ++i) {
        EXPECT_EQ(a.fields()[i].name, b.fields()[i].name);
        EXPECT_EQ(a.fields()[i].value.type().arrow_name(), b.fields()[i].value.type().arrow_name())
            << a.id() << " " << a.fields()[i].name;
        EXPECT_TRUE(a.fields()[i].value == b.fields()[i].value)
            << a.id() << " " << a.fields()[i].name;
    }
    if (a.is_folder() && b.is_folder()) expect_same(a.children(), b.children());
}

// One value of every type, nested ones included.
Sample every_type(std::string id, Sample s, int k) {
    const DataType dec = DataType::decimal(10, 2);
    const DataType point =
        DataType::structure({{"x", DataType::float64()}, {"label", DataType::string()}});
    s.set("b", Value(k % 2 == 0));
    s.set("i32", Value::int32(-7 * k));
    s.set("i64", Value(static_cast<long long>(1) << 40));
    s.set("f32", Value(0.1f * static_cast<float>(k)));
    s.set("f64", Value(-2.5e300));
    s.set("text", Value("naïve " + id));
    s.set("blob", Value::binary(std::string("\0\x01\xff", 3)));
    s.set("ts", Value::timestamp(1'700'000'000'000'000LL));
    s.set("tstz", Value::timestamp_tz(-86'400'000'000LL));
    s.set("day", Value::date(19'000 + k));
    s.set("money", Value::decimal(dec, "-12.5"));
    s.set("nested",
          Value::list({Value::list({Value(1LL), Value()}), Value::list(DataType::int64(), {})}));
    s.set("point", Value::structure(point, {Value(1.25), Value::null(DataType::string())}));
    s.set("tags",
          Value::map(DataType::map(DataType::string(), DataType::int64()),
                     {{Value("a"), Value(1LL)}, {Value("b"), Value::null(DataType::int64())}}));
    s.set("vec", Value::fixed_list(DataType::fixed_list(DataType::float32(), 2),
                                   {Value(1.5f), Value(-0.25f)}));
    s.set("typed_null", Value::null(DataType::list(DataType::float32())));
    return s;
}

}  // namespace

TEST(ModelCodec, TreeOfEveryKindRoundTrips) {
    TempDir dir;
    { std::ofstream(dir / "a.bin") << "file a"; }
    std::vector<Sample> children;
    children.push_back(every_type("c0", Sample::bytes("c0", "child bytes"), 1));
    children.push_back(every_type("c1", Sample::file("c1", dir / "a.bin"), 2));
    std::vector<Sample> top;
    top.push_back(every_type("disk", Sample::file("disk", dir / "a.bin"), 3));
    top.push_back(every_type("memory", Sample::bytes("memory", std::string("\0raw", 4)), 4));
    top.push_back(every_type("folder", Sample::folder("folder", Tortilla(children)), 5));
    TortillaOptions padded;
    padded.pad_to = 5;
    const Tortilla original(top, padded);
    ASSERT_EQ(original.size(), 5u);  // two __TACOPAD__ samples

    const std::string bytes = model::encode_tortilla(original);
    const Tortilla back = model::decode_tortilla(bytes, "test");
    expect_same(original, back);
    EXPECT_EQ(model::encode_tortilla(back), bytes);  // stable: nothing drifts on a second trip

    const Sample one = model::decode_sample(model::encode_sample(original[2]), "test");
    expect_same(original[2], one);
    const Sample pad = model::decode_sample(model::encode_sample(original[4]), "test");
    expect_same(original[4], pad);
}

TEST(ModelCodec, AlignedTortillaKeepsItsTypedNulls) {
    std::vector<Sample> top;
    top.push_back(Sample::bytes("a", "x").set("cloud", Value(12.5)));
    top.push_back(Sample::bytes("b", "y").set("other", Value::int32(3)));
    TortillaOptions loose;
    loose.strict_schema = false;
    const Tortilla original(top, loose);
    const Tortilla back = model::decode_tortilla(model::encode_tortilla(original), "test");
    expect_same(original, back);
    EXPECT_EQ(back[1].get("cloud")->type(), DataType::float64());
    EXPECT_TRUE(back[1].get("cloud")->is_null());
}

TEST(ModelCodec, FileSamplesNeedTheirFileWhereTheyAreDecoded) {
    std::string bytes;
    {
        TempDir dir;
        { std::ofstream(dir / "gone.bin") << "soon gone"; }
        bytes = model::encode_sample(Sample::file("gone", dir / "gone.bin"));
    }
    const std::string e = error_of<Error>([&] { model::decode_sample(bytes, "pickled Sample"); });
    EXPECT_TRUE(contains(e, "gone.bin")) << e;
}

TEST(ModelCodec, DamagedEncodingsAreRefusedNotCrashed) {
    std::vector<Sample> top;
    top.push_back(every_type("memory", Sample::bytes("memory", "abc"), 1));
    const std::string good = model::encode_tortilla(Tortilla(top));
    // Every truncation, and every single-byte change, either decodes or throws a taco::Error.
    for (size_t n = 0; n < good.size(); ++n) {
        EXPECT_THROW(model::decode_tortilla(good.substr(0, n), "pickled Tortilla"), Error) << n;
    }
    for (size_t i = 8; i < good.size(); ++i) {
        std::string bad = good;
        bad[i] = static_cast<char>(bad[i] ^ 0x5a);
        try {
            model::decode_tortilla(bad, "pickled Tortilla");
        } catch (const Error&) {
        }
    }
    const std::string e = error_of<Error>([&] { model::decode_sample(good, "pickled Sample"); });
    EXPECT_TRUE(contains(e, "pickled Sample")) << e;
    EXPECT_TRUE(contains(e, "TACOSMP1")) << e;
    const std::string t =
        error_of<Error>([&] { model::decode_tortilla(good + "x", "pickled Tortilla"); });
    EXPECT_TRUE(contains(t, "trailing")) << t;
}
