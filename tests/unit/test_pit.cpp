// PIT-1 (structural isomorphism) and PIT-2 (one schema per level) at every depth (spec §5.4),
// through model::validate_pit / level_schemas and through Taco construction. The reference only
// compares ids and types at depth 1 (FORMAT.md §8.2); tacocore checks the whole tree.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/pit.hpp"
#include "taco/collection.hpp"
#include "taco/errors.hpp"
#include "taco/sample.hpp"
#include "taco/tortilla.hpp"

using namespace taco;

#include "test_util.hpp"

using taco::test::contains;
using taco::test::error_of;

namespace {

Sample file(const std::string& id, std::vector<Field> fields = {}) {
    Sample s = Sample::bytes(id, "x");
    s.extend_with(fields);
    return s;
}

Sample folder(const std::string& id, std::vector<Sample> kids, std::vector<Field> fields = {}) {
    Sample s = Sample::folder(id, Tortilla(std::move(kids)));
    s.extend_with(fields);
    return s;
}

// A folder whose children are padded with __TACOPAD__N up to a multiple of `pad_to`.
Sample padded_folder(const std::string& id, std::vector<Sample> kids, size_t pad_to) {
    TortillaOptions opt;
    opt.pad_to = pad_to;
    return Sample::folder(id, Tortilla(std::move(kids), opt));
}

CollectionInfo info() {
    CollectionInfo i;
    i.id = "pit_test";
    i.dataset_version = "1.0.0";
    i.description = "PIT tests";
    i.licenses = {"CC-BY-4.0"};
    i.tasks = {"other"};
    return i;
}

std::string pit_error(const Tortilla& root) {
    return error_of<PitError>([&] { model::validate_pit(root); });
}

std::vector<std::string> names(const std::vector<ColumnType>& schema) {
    std::vector<std::string> out;
    for (const auto& c : schema) out.push_back(c.name);
    return out;
}

// A chain of `levels` levels: root -> l1 -> ... -> a FILE at the last level.
Sample chain(const std::string& root_id, size_t levels) {
    Sample s = file("leaf");
    for (size_t l = levels - 1; l >= 1; --l) {
        s = folder(l == 1 ? root_id : "n" + std::to_string(l), {s});
    }
    return s;
}

}  // namespace

// --- accepted trees
// -------------------------------------------------------------------------------

TEST(Pit, IsomorphicTreeIsAccepted) {
    auto tile = [](const std::string& id) {
        return folder(id, {file("meta"), folder("s2", {file("B02"), file("B03")})});
    };
    Tortilla root({tile("t0"), tile("t1"), tile("t2")});
    EXPECT_NO_THROW(model::validate_pit(root));
    Taco taco(root, info());
    EXPECT_EQ(taco.levels(), 3u);
}

TEST(Pit, FlatFileRootIsAccepted) {
    Tortilla root({file("a"), file("b")});
    EXPECT_NO_THROW(model::validate_pit(root));
    EXPECT_EQ(Taco(root, info()).levels(), 1u);
}

// --- root types
// -----------------------------------------------------------------------------------

TEST(Pit, MixedRootTypesAreRejected) {
    Tortilla root({folder("r0", {file("a")}), file("r1")});
    std::string msg = pit_error(root);
    EXPECT_TRUE(contains(msg, "level 0")) << msg;
    EXPECT_TRUE(contains(msg, "root sample 'r1' is a FILE")) << msg;
    EXPECT_TRUE(contains(msg, "root sample 'r0' is a FOLDER")) << msg;
    EXPECT_THROW(Taco(root, info()), PitError);
}

// --- PIT-1: child counts
// --------------------------------------------------------------------------

TEST(Pit1, ChildCountDifferenceAtDepth1) {
    Tortilla root({folder("r0", {file("a"), file("b")}), folder("r1", {file("a"), file("b")}),
                   folder("r2", {file("a"), file("b"), file("c")})});
    std::string msg = pit_error(root);
    EXPECT_TRUE(contains(msg, "PIT-1 violation in root sample 'r2'")) << msg;
    EXPECT_TRUE(contains(msg, "at depth 0")) << msg;  // depth of the folder named
    EXPECT_TRUE(contains(msg, "folder 'r2' has 3 children, expected 2 as 'r0' has")) << msg;
}

TEST(Pit1, ChildCountDifferenceAtDepth2) {
    Tortilla root({folder("r0", {folder("m", {file("a"), file("b")})}),
                   folder("r1", {folder("m", {file("a")})})});
    std::string msg = pit_error(root);
    EXPECT_TRUE(contains(msg, "root sample 'r1' at depth 1")) << msg;
    EXPECT_TRUE(contains(msg, "folder 'r1/m' has 1 children, expected 2 as 'r0/m' has")) << msg;
}

TEST(Pit1, ChildCountDifferenceAtDepth3) {
    Tortilla root({folder("r0", {folder("m", {folder("n", {file("a"), file("b")})})}),
                   folder("r1", {folder("m", {folder("n", {file("a"), file("b"), file("c")})})})});
    std::string msg = pit_error(root);
    EXPECT_TRUE(contains(msg, "root sample 'r1' at depth 2")) << msg;
    EXPECT_TRUE(contains(msg, "folder 'r1/m/n' has 3 children, expected 2 as 'r0/m/n' has")) << msg;
    EXPECT_THROW(Taco(root, info()), PitError);
}

// --- PIT-1: ids and types by position
// -------------------------------------------------------------

TEST(Pit1, DifferentIdAtDepth1NamesRootPositionAndExpectedId) {
    Tortilla root({folder("r0", {file("a"), file("b")}), folder("r1", {file("a"), file("c")})});
    std::string msg = pit_error(root);
    EXPECT_TRUE(contains(msg, "PIT-1 violation in root sample 'r1' at depth 1")) << msg;
    EXPECT_TRUE(contains(msg, "position 1 under 'r1' holds FILE 'c'")) << msg;
    EXPECT_TRUE(contains(msg, "expected FILE 'b' as in 'r0/b'")) << msg;
}

TEST(Pit1, DifferentTypeAtDepth1) {
    Tortilla root({folder("r0", {file("a"), folder("b", {file("x")})}),
                   folder("r1", {file("a"), file("b")})});
    std::string msg = pit_error(root);
    EXPECT_TRUE(contains(msg, "root sample 'r1' at depth 1")) << msg;
    EXPECT_TRUE(contains(msg, "position 1 under 'r1' holds FILE 'b', expected FOLDER 'b'")) << msg;
}

TEST(Pit1, DifferentIdAtDepth3IsFoundRecursively) {
    Tortilla root({folder("r0", {folder("m", {folder("n", {file("a"), file("b")})})}),
                   folder("r1", {folder("m", {folder("n", {file("a"), file("z")})})})});
    std::string msg = pit_error(root);
    EXPECT_TRUE(contains(msg, "PIT-1 violation in root sample 'r1' at depth 3")) << msg;
    EXPECT_TRUE(contains(msg, "position 1 under 'r1/m/n' holds FILE 'z'")) << msg;
    EXPECT_TRUE(contains(msg, "expected FILE 'b' as in 'r0/m/n/b'")) << msg;
    EXPECT_THROW(Taco(root, info()), PitError);
}

TEST(Pit1, DifferentTypeAtDepth3IsFoundRecursively) {
    Tortilla root(
        {folder("r0", {folder("m", {folder("n", {file("a"), file("b")})})}),
         folder("r1", {folder("m", {folder("n", {file("a"), folder("b", {file("q")})})})})});
    std::string msg = pit_error(root);
    EXPECT_TRUE(contains(msg, "root sample 'r1' at depth 3")) << msg;
    EXPECT_TRUE(contains(msg, "position 1 under 'r1/m/n' holds FOLDER 'b', expected FILE 'b'"))
        << msg;
}

TEST(Pit1, ALaterRootIsComparedWithTheRootThatDefinedThePosition) {
    Tortilla root({folder("r0", {folder("m", {file("a")})}),
                   folder("r1", {folder("m", {file("a")})}),
                   folder("r2", {folder("m", {file("b")})})});
    std::string msg = pit_error(root);
    EXPECT_TRUE(contains(msg, "root sample 'r2' at depth 2")) << msg;
    EXPECT_TRUE(
        contains(msg, "position 0 under 'r2/m' holds FILE 'b', expected FILE 'a' as in 'r0/m/a'"))
        << msg;
}

// --- padding
// --------------------------------------------------------------------------------------

TEST(PitPadding, PaddingStandsInForAFile) {
    Tortilla root({folder("r0", {file("a"), file("b")}), padded_folder("r1", {file("a")}, 2)});
    EXPECT_NO_THROW(model::validate_pit(root));
    EXPECT_NO_THROW(Taco(root, info()));
}

TEST(PitPadding, PaddingFirstThenAFileIsAccepted) {
    Tortilla root({padded_folder("r0", {file("a")}, 2), folder("r1", {file("a"), file("b")})});
    EXPECT_NO_THROW(model::validate_pit(root));
}

TEST(PitPadding, PaddingDoesNotStandInForAFolder) {
    Tortilla root(
        {folder("r0", {file("a"), folder("b", {file("x")})}), padded_folder("r1", {file("a")}, 2)});
    std::string msg = pit_error(root);
    EXPECT_TRUE(contains(msg, "root sample 'r1' at depth 1")) << msg;
    EXPECT_TRUE(contains(msg, "position 1 under 'r1' is padding '__TACOPAD__0'")) << msg;
    EXPECT_TRUE(contains(msg, "'r0/b' is a FOLDER there")) << msg;
    EXPECT_TRUE(contains(msg, "padding only stands in for FILEs")) << msg;
}

TEST(PitPadding, PaddingBeforeAFolderAtTheSamePositionIsRejectedToo) {
    // Same tree as above with the roots swapped: the result must not depend on root order.
    Tortilla root(
        {padded_folder("r0", {file("a")}, 2), folder("r1", {file("a"), folder("b", {file("x")})})});
    std::string msg = pit_error(root);
    EXPECT_TRUE(contains(msg, "position 1 under 'r1'")) << msg;
    EXPECT_TRUE(contains(msg, "'r0/__TACOPAD__0'")) << msg;
    EXPECT_TRUE(contains(msg, "padding only stands in for FILEs")) << msg;
}

TEST(PitPadding, PaddingCountsTowardsTheChildCount) {
    // r1 has 1 real child + 2 padding = 3 positions, r0 has 2: the shapes differ.
    Tortilla root({folder("r0", {file("a"), file("b")}), padded_folder("r1", {file("a")}, 3)});
    std::string msg = pit_error(root);
    EXPECT_TRUE(contains(msg, "folder 'r1' has 3 children, expected 2 as 'r0' has")) << msg;
}

TEST(PitPadding, RootPaddingIsIgnoredByTheRootTypeRule) {
    TortillaOptions opt;
    opt.pad_to = 2;
    Tortilla root({folder("r0", {file("a")}), folder("r1", {file("a")}), folder("r2", {file("a")})},
                  opt);
    ASSERT_EQ(root.size(), 4u);
    ASSERT_TRUE(root[3].is_padding());
    EXPECT_NO_THROW(model::validate_pit(root));
}

// --- PIT-2
// ----------------------------------------------------------------------------------------

TEST(Pit2, ColumnOfAnotherTypeNamesLevelAndFolder) {
    Tortilla root({folder("r0", {file("a", {{"x", Value(1)}})}),
                   folder("r1", {file("a", {{"x", Value("s")}})})});
    std::string msg = pit_error(root);
    EXPECT_TRUE(contains(msg, "PIT-2 violation at level 1")) << msg;
    EXPECT_TRUE(contains(msg, "the children of 'r1' have column 'x' of type string")) << msg;
    EXPECT_TRUE(contains(msg, "expected int64 as under 'r0'")) << msg;
    EXPECT_THROW(Taco(root, info()), PitError);
}

TEST(Pit2, ColumnTheOtherFoldersLackNamesLevelAndFolder) {
    Tortilla root({folder("r0", {file("a", {{"x", Value(1)}})}),
                   folder("r1", {file("a", {{"x", Value(1)}, {"y", Value(2)}})})});
    std::string msg = pit_error(root);
    EXPECT_TRUE(contains(msg, "PIT-2 violation at level 1")) << msg;
    EXPECT_TRUE(contains(msg, "the children of 'r1' have column 'y'")) << msg;
    EXPECT_TRUE(contains(msg, "which the other folders of this level do not have")) << msg;
}

TEST(Pit2, MissingColumnNamesLevelAndFolder) {
    Tortilla root({folder("r0", {file("a", {{"x", Value(1)}, {"y", Value(2)}})}),
                   folder("r1", {file("a", {{"x", Value(1)}})})});
    std::string msg = pit_error(root);
    EXPECT_TRUE(contains(msg, "PIT-2 violation at level 1")) << msg;
    EXPECT_TRUE(contains(msg, "the children of 'r1' lack column 'y'")) << msg;
    EXPECT_TRUE(contains(msg, "'r0'")) << msg;
}

TEST(Pit2, ConflictAtLevel2NamesTheFolderPath) {
    Tortilla root({folder("r0", {folder("m", {file("a", {{"x", Value(1)}})})}),
                   folder("r1", {folder("m", {file("a", {{"x", Value(1.5)}})})})});
    std::string msg = pit_error(root);
    EXPECT_TRUE(contains(msg, "PIT-2 violation at level 2")) << msg;
    EXPECT_TRUE(contains(msg, "the children of 'r1/m' have column 'x' of type double")) << msg;
    EXPECT_TRUE(contains(msg, "expected int64 as under 'r0/m'")) << msg;
}

TEST(Pit2, NullsUnifyAcrossFoldersAndColumnOrderMayDiffer) {
    Tortilla root({folder("r0", {file("a", {{"x", Value()}, {"y", Value("s")}})}),
                   folder("r1", {file("a", {{"y", Value("t")}, {"x", Value(2)}})})});
    EXPECT_NO_THROW(model::validate_pit(root));
    auto levels = model::level_schemas(root);
    ASSERT_EQ(levels.size(), 2u);
    ASSERT_EQ(levels[1].size(), 2u);
    EXPECT_EQ(levels[1][0], (ColumnType{"x", DataType::int64()}));
    EXPECT_EQ(levels[1][1], (ColumnType{"y", DataType::string()}));
}

// --- depth limit
// ----------------------------------------------------------------------------------

TEST(PitDepth, SixLevelsAreAllowed) {
    Tortilla root({chain("r0", 6), chain("r1", 6)});
    ASSERT_EQ(root.depth(), 6u);
    EXPECT_NO_THROW(model::validate_pit(root));
    EXPECT_EQ(Taco(root, info()).levels(), 6u);
}

TEST(PitDepth, SevenLevelsAreRejected) {
    Tortilla root({chain("r0", 7)});
    ASSERT_EQ(root.depth(), 7u);
    std::string msg = pit_error(root);
    EXPECT_TRUE(contains(msg, "the sample tree has 7 levels")) << msg;
    EXPECT_TRUE(contains(msg, "at most 6")) << msg;
    EXPECT_THROW(Taco(root, info()), PitError);
}

// --- level schemas
// --------------------------------------------------------------------------------

TEST(LevelSchemas, RootKeepsItsOrderDeeperLevelsAreSortedByCodePoint) {
    std::vector<Field> kid_fields = {
        {"b", Value(1)}, {"A", Value(1.0)}, {"a:x", Value("s")}, {"_u", Value(true)}};
    Tortilla root({folder("r0", {file("k", kid_fields)}, {{"z", Value(1)}, {"a", Value("q")}}),
                   folder("r1", {file("k", kid_fields)}, {{"z", Value(2)}, {"a", Value("p")}})});
    auto levels = model::level_schemas(root);
    ASSERT_EQ(levels.size(), 2u);
    EXPECT_EQ(names(levels[0]), (std::vector<std::string>{"z", "a"}));
    EXPECT_EQ(names(levels[1]), (std::vector<std::string>{"A", "_u", "a:x", "b"}));
    EXPECT_EQ(levels[1][0].type, DataType::float64());
    EXPECT_EQ(levels[1][1].type, DataType::boolean());
}

TEST(LevelSchemas, OneEntryPerLevelUnifyingAllFoldersOfALevel) {
    Tortilla root({folder("r0", {folder("m", {file("a", {{"v", Value()}})})}),
                   folder("r1", {folder("m", {file("a", {{"v", Value::list({Value(1.0f)})}})})})});
    auto levels = model::level_schemas(root);
    ASSERT_EQ(levels.size(), 3u);
    EXPECT_TRUE(levels[0].empty());
    EXPECT_TRUE(levels[1].empty());
    ASSERT_EQ(levels[2].size(), 1u);
    EXPECT_EQ(levels[2][0].type, DataType::list(DataType::float32()));
}

TEST(LevelSchemas, FlatTreeHasOneLevel) {
    Tortilla root({file("a", {{"x", Value(1)}}), file("b", {{"x", Value(2)}})});
    auto levels = model::level_schemas(root);
    ASSERT_EQ(levels.size(), 1u);
    EXPECT_EQ(names(levels[0]), (std::vector<std::string>{"x"}));
}
