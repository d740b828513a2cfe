// Tortilla: non-empty, unique ids, strict and aligned schemas, padding, depth and size
// (spec §5.2, FORMAT.md §4.5, §8.2), with the content of every error message.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "taco/errors.hpp"
#include "taco/sample.hpp"
#include "taco/tortilla.hpp"

using namespace taco;

#include "test_util.hpp"

using taco::test::contains;
using taco::test::error_of;

namespace {

Sample file(const std::string& id, std::vector<Field> fields = {}, std::string data = "x") {
    Sample s = Sample::bytes(id, std::move(data));
    s.extend_with(fields);
    return s;
}

std::vector<std::string> ids(const Tortilla& t) {
    std::vector<std::string> out;
    for (const auto& s : t.samples()) out.push_back(s.id());
    return out;
}

std::vector<std::string> names(const std::vector<ColumnType>& schema) {
    std::vector<std::string> out;
    for (const auto& c : schema) out.push_back(c.name);
    return out;
}

std::vector<std::string> names(const std::vector<Field>& fields) {
    std::vector<std::string> out;
    for (const auto& f : fields) out.push_back(f.name);
    return out;
}

}  // namespace

TEST(Tortilla, EmptyIsASchemaError) {
    std::string msg = error_of<SchemaError>([] { Tortilla t({}); });
    EXPECT_TRUE(contains(msg, "at least one sample")) << msg;
}

TEST(Tortilla, KeepsSamplesInOrder) {
    Tortilla t({file("b"), file("a"), file("c")});
    EXPECT_EQ(t.size(), 3u);
    EXPECT_EQ(ids(t), (std::vector<std::string>{"b", "a", "c"}));
    EXPECT_EQ(t[1].id(), "a");
}

// --- unique ids
// -----------------------------------------------------------------------------------

TEST(TortillaIds, DuplicatesAreListedWithCounts) {
    std::string msg = error_of<SchemaError>([] {
        Tortilla t({file("a"), file("b"), file("a"), file("c"), file("c"), file("c")});
    });
    EXPECT_TRUE(contains(msg, "duplicate sample ids")) << msg;
    EXPECT_TRUE(contains(msg, "'a' x2")) << msg;
    EXPECT_TRUE(contains(msg, "'c' x3")) << msg;
    EXPECT_FALSE(contains(msg, "'b'")) << msg;
    EXPECT_FALSE(contains(msg, "more")) << msg;
}

TEST(TortillaIds, AtMostTenDuplicatesAreShownThenHowManyMore) {
    std::vector<Sample> samples;
    for (int round = 0; round < 2; ++round) {
        for (int i = 0; i < 12; ++i) {
            char id[8];
            std::snprintf(id, sizeof id, "d%02d", i);
            samples.push_back(file(id));
        }
    }
    std::string msg = error_of<SchemaError>([&] { Tortilla t(samples); });
    for (int i = 0; i < 10; ++i) {
        char shown[16];
        std::snprintf(shown, sizeof shown, "'d%02d' x2", i);
        EXPECT_TRUE(contains(msg, shown)) << msg;
    }
    EXPECT_FALSE(contains(msg, "'d10'")) << msg;
    EXPECT_FALSE(contains(msg, "'d11'")) << msg;
    EXPECT_TRUE(contains(msg, "(2 more)")) << msg;
}

// --- strict schema
// --------------------------------------------------------------------------------

TEST(TortillaStrict, SameColumnsGiveTheFirstSamplesSchema) {
    Tortilla t({file("s0", {{"x", Value(1)}, {"y", Value("a")}}),
                file("s1", {{"x", Value(2)}, {"y", Value("b")}})});
    ASSERT_EQ(t.schema().size(), 2u);
    EXPECT_EQ(t.schema()[0], (ColumnType{"x", DataType::int64()}));
    EXPECT_EQ(t.schema()[1], (ColumnType{"y", DataType::string()}));
}

TEST(TortillaStrict, MissingColumnNamesSampleAndColumn) {
    std::string msg = error_of<SchemaError>([] {
        Tortilla t({file("s0", {{"x", Value(1)}, {"y", Value(2)}}), file("s1", {{"x", Value(1)}})});
    });
    EXPECT_TRUE(contains(msg, "sample 's1' (position 1) has no column 'y'")) << msg;
    EXPECT_TRUE(contains(msg, "sample 's0' has it")) << msg;
    EXPECT_TRUE(contains(msg, "strict_schema=false")) << msg;
}

TEST(TortillaStrict, ExtraColumnNamesSampleColumnAndPosition) {
    std::string msg = error_of<SchemaError>([] {
        Tortilla t({file("s0", {{"x", Value(1)}}), file("s1", {{"x", Value(1)}, {"z", Value(2)}})});
    });
    EXPECT_TRUE(contains(msg, "sample 's1' (position 1) has column 'z' at position 1")) << msg;
    EXPECT_TRUE(contains(msg, "which sample 's0' does not have")) << msg;
}

TEST(TortillaStrict, OtherColumnOrderIsRejected) {
    std::string msg = error_of<SchemaError>([] {
        Tortilla t({file("s0", {{"x", Value(1)}, {"y", Value(2)}}),
                    file("s1", {{"y", Value(2)}, {"x", Value(1)}})});
    });
    EXPECT_TRUE(contains(msg, "sample 's1' (position 1) has column 'y' at position 0")) << msg;
    EXPECT_TRUE(contains(msg, "sample 's0' has it at another position")) << msg;
    EXPECT_TRUE(contains(msg, "same columns in the same order")) << msg;
}

TEST(TortillaStrict, TypeMismatchNamesSamplePositionColumnAndBothTypes) {
    std::string msg = error_of<SchemaError>([] {
        Tortilla t({file("s0", {{"x", Value(1)}}), file("s1", {{"x", Value(2)}}),
                    file("s2", {{"x", Value("three")}})});
    });
    EXPECT_TRUE(contains(msg, "sample 's2' (position 2)")) << msg;
    EXPECT_TRUE(contains(msg, "column 'x' has type string")) << msg;
    EXPECT_TRUE(contains(msg, "expected int64")) << msg;
}

TEST(TortillaStrict, NestedListTypesAreCompared) {
    std::string msg = error_of<SchemaError>([] {
        Tortilla t({file("s0", {{"l", Value::list({Value::list({Value(1.0f)})})}}),
                    file("s1", {{"l", Value::list({Value::list({Value(1.0)})})}})});
    });
    EXPECT_TRUE(contains(msg, "has type list<item: list<item: double>>")) << msg;
    EXPECT_TRUE(contains(msg, "expected list<item: list<item: float>>")) << msg;
}

TEST(TortillaStrict, NullsFitAnyTypeAndTheSchemaTakesTheKnownType) {
    Tortilla t({file("s0", {{"x", Value()}, {"l", Value::list(DataType::null(), {})}}),
                file("s1", {{"x", Value(2.5)}, {"l", Value::list({Value(1)})}}),
                file("s2", {{"x", Value::null(DataType::float64())}, {"l", Value()}})});
    ASSERT_EQ(t.schema().size(), 2u);
    EXPECT_EQ(t.schema()[0].type, DataType::float64());
    EXPECT_EQ(t.schema()[1].type, DataType::list(DataType::int64()));
}

TEST(TortillaStrict, ATypeLearnedFromALaterSampleIsEnforced) {
    // s0's null says nothing; s1 fixes the type to double; s2's int64 then conflicts.
    std::string msg = error_of<SchemaError>([] {
        Tortilla t({file("s0", {{"x", Value()}}), file("s1", {{"x", Value(2.5)}}),
                    file("s2", {{"x", Value(3)}})});
    });
    EXPECT_TRUE(contains(msg, "sample 's2' (position 2) column 'x' has type int64")) << msg;
    EXPECT_TRUE(contains(msg, "expected double")) << msg;
}

// --- aligned schema
// -------------------------------------------------------------------------------

TEST(TortillaAligned, UnionIsSortedByCodePointAndMissingValuesAreTypedNulls) {
    TortillaOptions opt;
    opt.strict_schema = false;
    Tortilla t({file("s0", {{"b", Value(1)}, {"a_y", Value("s")}, {"c:z", Value(1)}}),
                file("s1", {{"c", Value(2.0)}, {"a:x", Value(true)}}),
                file("s2", {{"Bx", Value::binary("\x01")}, {"c:\xc3\xa9", Value(1)}})},
               opt);
    // ':' (0x3A) < 'B' < '_' (0x5F) < lowercase < non-ASCII; a prefix sorts first
    const std::vector<std::string> expected = {"Bx", "a:x", "a_y", "b", "c", "c:z", "c:\xc3\xa9"};
    EXPECT_EQ(names(t.schema()), expected);
    for (const auto& s : t.samples()) EXPECT_EQ(names(s.fields()), expected) << s.id();

    const Sample& s1 = t[1];
    ASSERT_NE(s1.get("b"), nullptr);
    EXPECT_TRUE(s1.get("b")->is_null());
    EXPECT_EQ(s1.get("b")->type(), DataType::int64());
    EXPECT_TRUE(s1.get("Bx")->is_null());
    EXPECT_EQ(s1.get("Bx")->type(), DataType::binary());
    EXPECT_EQ(s1.get("c")->as_double(), 2.0);
    EXPECT_EQ(t[0].get("a_y")->as_string(), "s");
    EXPECT_TRUE(t[0].get("c")->is_null());
    EXPECT_EQ(t[0].get("c")->type(), DataType::float64());
}

TEST(TortillaAligned, TypeConflictNamesBothSamples) {
    TortillaOptions opt;
    opt.strict_schema = false;
    std::string msg = error_of<SchemaError>([&] {
        Tortilla t({file("s0", {{"x", Value(1)}}), file("s1", {{"y", Value(1)}}),
                    file("s2", {{"x", Value("a")}})},
                   opt);
    });
    EXPECT_TRUE(contains(msg, "sample 's2' (position 2) column 'x' has type string")) << msg;
    EXPECT_TRUE(contains(msg, "expected int64 as in sample 's0'")) << msg;
}

// --- padding
// --------------------------------------------------------------------------------------

TEST(TortillaPadding, PadsUpToTheNextMultiple) {
    TortillaOptions opt;
    opt.pad_to = 4;
    std::vector<Sample> samples;
    for (int i = 0; i < 5; ++i) {
        samples.push_back(file("s" + std::to_string(i),
                               {{"x", Value(i)}, {"l", Value::list({Value(1.0)})}}, "ab"));
    }
    Tortilla t(samples, opt);
    EXPECT_EQ(ids(t), (std::vector<std::string>{"s0", "s1", "s2", "s3", "s4", "__TACOPAD__0",
                                                "__TACOPAD__1", "__TACOPAD__2"}));
    for (size_t i = 0; i < 5; ++i) EXPECT_FALSE(t[i].is_padding());
    for (size_t i = 5; i < 8; ++i) {
        const Sample& p = t[i];
        EXPECT_TRUE(p.is_padding());
        EXPECT_TRUE(p.is_file());
        EXPECT_EQ(p.size(), 0u);
        ASSERT_EQ(names(p.fields()), (std::vector<std::string>{"x", "l"}));
        EXPECT_TRUE(p.fields()[0].value.is_null());
        EXPECT_EQ(p.fields()[0].value.type(), DataType::int64());
        EXPECT_TRUE(p.fields()[1].value.is_null());
        EXPECT_EQ(p.fields()[1].value.type(), DataType::list(DataType::float64()));
    }
    EXPECT_EQ(t.total_size(), 10u);  // padding adds no bytes
}

TEST(TortillaPadding, UsesTypesResolvedAcrossSamples) {
    TortillaOptions opt;
    opt.pad_to = 3;
    Tortilla t({file("s0", {{"x", Value()}}), file("s1", {{"x", Value::timestamp(5)}})}, opt);
    ASSERT_EQ(t.size(), 3u);
    EXPECT_EQ(t[2].fields()[0].value.type(), DataType::timestamp());
}

TEST(TortillaPadding, NothingIsAddedWhenTheCountDivides) {
    TortillaOptions opt;
    opt.pad_to = 2;
    Tortilla t({file("a"), file("b"), file("c"), file("d")}, opt);
    EXPECT_EQ(t.size(), 4u);
    opt.pad_to = 1;
    Tortilla one({file("a"), file("b"), file("c")}, opt);
    EXPECT_EQ(one.size(), 3u);
    for (const auto& s : one.samples()) EXPECT_FALSE(s.is_padding());
}

TEST(TortillaPadding, PadToZeroIsASchemaError) {
    TortillaOptions opt;
    opt.pad_to = 0;
    std::string msg = error_of<SchemaError>([&] { Tortilla t({file("a")}, opt); });
    EXPECT_TRUE(contains(msg, "pad_to must be at least 1")) << msg;
}

TEST(TortillaPadding, AlignedSchemaPaddingFollowsTheSortedColumns) {
    TortillaOptions opt;
    opt.strict_schema = false;
    opt.pad_to = 3;
    Tortilla t({file("s0", {{"z", Value(1)}}), file("s1", {{"a", Value("q")}})}, opt);
    ASSERT_EQ(t.size(), 3u);
    EXPECT_EQ(names(t[2].fields()), (std::vector<std::string>{"a", "z"}));
    EXPECT_EQ(t[2].fields()[0].value.type(), DataType::string());
    EXPECT_EQ(t[2].fields()[1].value.type(), DataType::int64());
}

// --- depth and size
// -------------------------------------------------------------------------------

TEST(TortillaShape, DepthCountsLevelsIncludingThisOne) {
    Tortilla flat({file("a"), file("b")});
    EXPECT_EQ(flat.depth(), 1u);
    Tortilla two({Sample::folder("f", flat), file("c")});
    EXPECT_EQ(two.depth(), 2u);
    Tortilla three({Sample::folder("g", two), Sample::folder("h", flat)});
    EXPECT_EQ(three.depth(), 3u);  // the deepest branch counts
}

TEST(TortillaShape, TotalSizeSumsEveryFileBelow) {
    Tortilla inner({file("a", {}, "123"), file("b", {}, "45")});
    Tortilla outer({Sample::folder("f", inner), file("c", {}, "6789"), file("e", {}, "")});
    EXPECT_EQ(inner.total_size(), 5u);
    EXPECT_EQ(outer.total_size(), 9u);
    Tortilla top({Sample::folder("o", outer)});
    EXPECT_EQ(top.total_size(), 9u);
}

TEST(TortillaColumnCase, NamesThatDifferOnlyInCaseAreRefusedNamingTheSamples) {
    // DuckDB takes "Cloud" and "cloud" for one column: create() would fail inside a COPY.
    std::string msg = error_of<SchemaError>([] {
        TortillaOptions aligned;
        aligned.strict_schema = false;
        Tortilla t({file("a", {{"cloud", Value(1)}}), file("b", {{"Cloud", Value(2)}})}, aligned);
    });
    // Aligned: the union is in code-point order ("Cloud" first); each name is found on its sample.
    EXPECT_TRUE(contains(msg,
                         "column 'cloud' of sample 'a' (position 0) differs from column "
                         "'Cloud' of sample 'b' (position 1) only in letter case"))
        << msg;
    msg = error_of<SchemaError>([] {
        Tortilla t({file("a", {{"cloud", Value(1)}, {"CLOUD", Value(2)}})});
    });
    EXPECT_TRUE(contains(msg,
                         "column 'CLOUD' of sample 'a' (position 0) differs from column "
                         "'cloud' of sample 'a' (position 0)"))
        << msg;
    msg = error_of<SchemaError>([] { Tortilla t({file("a", {{"Type", Value("forest")}})}); });
    EXPECT_TRUE(contains(msg,
                         "column 'Type' of sample 'a' (position 0) differs from the core "
                         "column 'type' only in letter case"))
        << msg;
    msg = error_of<SchemaError>([] { Tortilla t({file("a", {{"ID", Value(1)}})}); });
    EXPECT_TRUE(contains(msg, "the core column 'id'")) << msg;
    Tortilla ok({file("a", {{"cloud", Value(1)}, {"cloud_2", Value(2)}, {"Cloud_3", Value(3)}})});
    EXPECT_EQ(ok.schema().size(), 3u);
}
