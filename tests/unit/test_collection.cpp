// COLLECTION field validation (spec §5.5.2, FORMAT.md §8.1) with the content of every message.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "taco/collection.hpp"
#include "taco/errors.hpp"

using namespace taco;

#include "test_util.hpp"

using taco::test::contains;
using taco::test::error_of;

namespace {

CollectionInfo valid_info() {
    CollectionInfo i;
    i.id = "s2-cloud_masks_v2";
    i.dataset_version = "1.0.0";
    i.description = "Cloud masks";
    i.licenses = {"CC-BY-4.0"};
    Contact p;
    p.name = "ESA";
    i.providers = {p};
    i.tasks = {"semantic-segmentation", "classification"};
    return i;
}

std::string collection_error(const CollectionInfo& info) {
    return error_of<SchemaError>([&] { validate_collection(info); });
}

std::string repeat(const std::string& s, size_t n) {
    std::string out;
    for (size_t i = 0; i < n; ++i) out += s;
    return out;
}

}  // namespace

TEST(Collection, ValidInfoPasses) {
    EXPECT_NO_THROW(validate_collection(valid_info()));
    Taco taco(Tortilla({Sample::bytes("a", "x")}), valid_info());
    EXPECT_EQ(taco.info().id, "s2-cloud_masks_v2");
    EXPECT_EQ(taco.info().taco_version, "2.0.0");
}

TEST(Collection, TacoConstructorValidatesTheCollection) {
    CollectionInfo info = valid_info();
    info.id = "Bad";
    EXPECT_THROW(Taco(Tortilla({Sample::bytes("a", "x")}), info), SchemaError);
}

// --- id
// -------------------------------------------------------------------------------------------

TEST(CollectionId, AcceptsLowercaseDigitsHyphenAndUnderscore) {
    for (const char* id : {"a", "s2-l2a_2023", "-a_", "dataset1", "x_1-2", "caf\xc3\xa9"}) {
        CollectionInfo info = valid_info();
        info.id = id;
        EXPECT_NO_THROW(validate_collection(info)) << id;
    }
}

TEST(CollectionId, UppercaseIsRejected) {
    CollectionInfo info = valid_info();
    info.id = "MyData";
    std::string msg = collection_error(info);
    EXPECT_TRUE(contains(msg, "COLLECTION field 'id'")) << msg;
    EXPECT_TRUE(contains(msg, "'MyData' has uppercase letters")) << msg;
}

TEST(CollectionId, NeedsAtLeastOneLowercaseLetter) {
    for (const char* id : {"1234", "", "___", "1-2"}) {
        CollectionInfo info = valid_info();
        info.id = id;
        std::string msg = collection_error(info);
        EXPECT_TRUE(contains(msg, "'" + std::string(id) + "' needs at least one lowercase letter"))
            << msg;
    }
}

TEST(CollectionId, OtherCharactersAreRejectedAndNamed) {
    struct Case {
        const char* id;
        const char* named;
    };
    for (const Case& c : {Case{"my data", "has ' '"}, Case{"my.data", "has '.'"},
                          Case{"a/b", "has '/'"}, Case{"a:b", "has ':'"}}) {
        CollectionInfo info = valid_info();
        info.id = c.id;
        std::string msg = collection_error(info);
        EXPECT_TRUE(contains(msg, "COLLECTION field 'id'")) << msg;
        EXPECT_TRUE(contains(msg, "'" + std::string(c.id) + "' " + c.named)) << msg;
        EXPECT_TRUE(contains(msg, "lowercase letters, digits, '_' and '-'")) << msg;
    }
}

// --- tasks, title, version
// ------------------------------------------------------------------------

TEST(CollectionTasks, UnknownTaskListsTheVocabulary) {
    CollectionInfo info = valid_info();
    info.tasks = {"classification", "segmantation"};
    std::string msg = collection_error(info);
    EXPECT_TRUE(contains(msg, "COLLECTION field 'tasks'")) << msg;
    EXPECT_TRUE(contains(msg, "unknown task 'segmantation'")) << msg;
    EXPECT_TRUE(contains(msg, "expected one of: regression, classification,")) << msg;
    for (const auto& t : known_tasks()) EXPECT_TRUE(contains(msg, t)) << t;
}

TEST(CollectionTasks, VocabularyIsTheReferenceList) {
    const std::vector<std::string> expected = {"regression",
                                               "classification",
                                               "scene-classification",
                                               "detection",
                                               "object-detection",
                                               "segmentation",
                                               "semantic-segmentation",
                                               "instance-segmentation",
                                               "panoptic-segmentation",
                                               "similarity-search",
                                               "generative",
                                               "image-captioning",
                                               "super-resolution",
                                               "denoising",
                                               "inpainting",
                                               "colorization",
                                               "style-transfer",
                                               "deblurring",
                                               "dehazing",
                                               "foundation-model",
                                               "other"};
    EXPECT_EQ(known_tasks(), expected);
    CollectionInfo info = valid_info();
    info.tasks = expected;
    EXPECT_NO_THROW(validate_collection(info));
}

TEST(CollectionTitle, AtMost250Characters) {
    CollectionInfo info = valid_info();
    info.title = std::string(250, 't');
    EXPECT_NO_THROW(validate_collection(info));
    info.title = std::string(251, 't');
    std::string msg = collection_error(info);
    EXPECT_TRUE(contains(msg, "COLLECTION field 'title'")) << msg;
    EXPECT_TRUE(contains(msg, "has 251 characters; at most 250 allowed")) << msg;
}

TEST(CollectionTitle, CountsUtf8CharactersNotBytes) {
    CollectionInfo info = valid_info();
    info.title = repeat("\xc3\xa9", 250);  // 500 bytes, 250 characters
    EXPECT_NO_THROW(validate_collection(info));
    info.title = repeat("\xf0\x9f\x8c\x8d", 250);  // 4-byte emoji
    EXPECT_NO_THROW(validate_collection(info));
    info.title = repeat("\xe6\x9d\xb1", 251);
    std::string msg = collection_error(info);
    EXPECT_TRUE(contains(msg, "has 251 characters")) << msg;
}

TEST(CollectionVersion, EmptyTacoVersionIsRejected) {
    CollectionInfo info = valid_info();
    info.taco_version = "";
    std::string msg = collection_error(info);
    EXPECT_TRUE(contains(msg, "COLLECTION field 'taco_version'")) << msg;
    EXPECT_TRUE(contains(msg, "must not be empty")) << msg;
}

// --- providers and curators
// -----------------------------------------------------------------------

TEST(CollectionContacts, ClassicShapeIsAccepted) {
    CollectionInfo info = valid_info();
    Contact c;
    c.name = "Ana";
    c.organization = "UV";
    c.email = "ana@uv.es";
    c.role = "producer";
    info.providers = {c};
    info.curators = std::vector<Contact>{c};
    EXPECT_NO_THROW(validate_collection(info));
}

TEST(CollectionContacts, ProviderShapeIsAccepted) {
    CollectionInfo info = valid_info();
    Contact c;
    c.name = "ESA";
    c.roles = std::vector<std::string>{"producer", "licensor"};
    c.url = "https://www.esa.int";
    c.links = std::vector<std::map<std::string, std::string>>{{{"href", "http://x.org"}}};
    info.providers = {c};
    EXPECT_NO_THROW(validate_collection(info));
}

TEST(CollectionContacts, MixedShapesAreRejected) {
    CollectionInfo info = valid_info();
    Contact c;
    c.name = "Ana";
    c.organization = "UV";
    c.url = "https://uv.es";
    info.providers = {valid_info().providers[0], c};
    std::string msg = collection_error(info);
    EXPECT_TRUE(contains(msg, "COLLECTION field 'providers[1]'")) << msg;
    EXPECT_TRUE(contains(msg, "mixes the {name, organization, email, role}")) << msg;
    EXPECT_TRUE(contains(msg, "{name, roles, url, links}")) << msg;
}

TEST(CollectionContacts, UrlMustBeHttpOrHttps) {
    CollectionInfo info = valid_info();
    info.providers[0].url = "ftp://data.example.org";
    std::string msg = collection_error(info);
    EXPECT_TRUE(contains(msg, "COLLECTION field 'providers[0]'")) << msg;
    EXPECT_TRUE(contains(msg, "url 'ftp://data.example.org' must start with http:// or https://"))
        << msg;
    info.providers[0].url = "http://data.example.org";
    EXPECT_NO_THROW(validate_collection(info));
}

TEST(CollectionContacts, ProviderShapeNeedsAName) {
    CollectionInfo info = valid_info();
    Contact c;
    c.url = "https://esa.int";
    info.providers = {c};
    std::string msg = collection_error(info);
    EXPECT_TRUE(contains(msg, "'providers[0]': needs a name")) << msg;
}

TEST(CollectionContacts, CuratorNeedsANameOrAnOrganization) {
    CollectionInfo info = valid_info();
    Contact nobody;
    nobody.email = "x@y.z";
    info.curators = std::vector<Contact>{nobody};
    std::string msg = collection_error(info);
    EXPECT_TRUE(contains(msg, "COLLECTION field 'curators[0]'")) << msg;
    EXPECT_TRUE(contains(msg, "needs a name or an organization")) << msg;

    Contact org_only;
    org_only.organization = "UV";
    info.curators = std::vector<Contact>{org_only};
    EXPECT_NO_THROW(validate_collection(info));
    Contact empty_name;
    empty_name.name = "";
    info.curators = std::vector<Contact>{org_only, empty_name};
    msg = collection_error(info);
    EXPECT_TRUE(contains(msg, "'curators[1]': needs a name or an organization")) << msg;
}

TEST(CollectionContacts, EmailNeedsAnAt) {
    CollectionInfo info = valid_info();
    Contact c;
    c.name = "Ana";
    c.email = "ana.uv.es";
    info.curators = std::vector<Contact>{c};
    std::string msg = collection_error(info);
    EXPECT_TRUE(contains(msg, "'curators[0]'")) << msg;
    EXPECT_TRUE(contains(msg, "email 'ana.uv.es' has no '@'")) << msg;
}

// --- extent
// ---------------------------------------------------------------------------------------

TEST(CollectionExtent, ValidExtentsPass) {
    CollectionInfo info = valid_info();
    info.extent = Extent{{-180.0, -90.0, 180.0, 90.0},
                         std::array<std::string, 2>{"2020-01-01", "2020-12-31T23:59:59Z"}};
    EXPECT_NO_THROW(validate_collection(info));
    info.extent = Extent{{170.0, -10.0, -170.0, 10.0}, std::nullopt};  // crosses the antimeridian
    EXPECT_NO_THROW(validate_collection(info));
    info.extent = Extent{{5.0, 3.0, 5.0, 3.0},
                         std::array<std::string, 2>{"2020-01-01T00:00:00Z", "2020-01-01"}};
    EXPECT_NO_THROW(validate_collection(info));  // a point and an instant
}

TEST(CollectionExtent, LongitudesOutOfRange) {
    for (auto box :
         {std::array<double, 4>{-180.5, 0, 10, 1}, std::array<double, 4>{0, 0, 181, 1}}) {
        CollectionInfo info = valid_info();
        info.extent = Extent{box, std::nullopt};
        std::string msg = collection_error(info);
        EXPECT_TRUE(contains(msg, "COLLECTION field 'extent'")) << msg;
        EXPECT_TRUE(contains(msg, "longitudes must lie in [-180, 180]")) << msg;
    }
}

TEST(CollectionExtent, LatitudesOutOfRange) {
    for (auto box : {std::array<double, 4>{0, -91, 10, 1}, std::array<double, 4>{0, 0, 10, 90.5}}) {
        CollectionInfo info = valid_info();
        info.extent = Extent{box, std::nullopt};
        std::string msg = collection_error(info);
        EXPECT_TRUE(contains(msg, "latitudes must lie in [-90, 90]")) << msg;
    }
}

TEST(CollectionExtent, SouthAboveNorthIsRejected) {
    CollectionInfo info = valid_info();
    info.extent = Extent{{0, 10, 10, 5}, std::nullopt};
    std::string msg = collection_error(info);
    EXPECT_TRUE(contains(msg, "south (10")) << msg;
    EXPECT_TRUE(contains(msg, "is greater than north")) << msg;
}

TEST(CollectionExtent, NonFiniteValuesAreRejected) {
    CollectionInfo info = valid_info();
    info.extent = Extent{{0, 0, std::numeric_limits<double>::quiet_NaN(), 1}, std::nullopt};
    std::string msg = collection_error(info);
    EXPECT_TRUE(contains(msg, "must be finite numbers")) << msg;
}

TEST(CollectionExtent, NonIsoTemporalIsRejected) {
    CollectionInfo info = valid_info();
    info.extent = Extent{{0, 0, 1, 1}, std::array<std::string, 2>{"yesterday", "2020-01-01"}};
    std::string msg = collection_error(info);
    EXPECT_TRUE(contains(msg, "temporal start 'yesterday' is not an ISO-8601 date")) << msg;
    info.extent->temporal = std::array<std::string, 2>{"2020-01-01", "01/02/2020"};
    msg = collection_error(info);
    EXPECT_TRUE(contains(msg, "temporal end '01/02/2020' is not an ISO-8601 date")) << msg;
}

TEST(CollectionExtent, StartAfterEndIsRejected) {
    CollectionInfo info = valid_info();
    info.extent = Extent{
        {0, 0, 1, 1}, std::array<std::string, 2>{"2021-01-01T00:00:00Z", "2020-12-31T23:59:59Z"}};
    std::string msg = collection_error(info);
    EXPECT_TRUE(contains(msg, "temporal start is after its end")) << msg;
    // Offsets are honoured: 01:00+02:00 is 23:00Z of the day before, so this range is valid.
    info.extent->temporal =
        std::array<std::string, 2>{"2021-01-01T01:00:00+02:00", "2021-01-01T00:00:00Z"};
    EXPECT_NO_THROW(validate_collection(info));
}

// --- TACO-level extensions
// ------------------------------------------------------------------------

TEST(CollectionExtensions, ValidJsonValuesAreAccepted) {
    CollectionInfo info = valid_info();
    info.extensions = {{"labels:classes", R"([{"name": "cloud"}])"},
                       {"split:strategy", R"("random")"},
                       {"publications", "[]"},
                       {"optical:num_bands", "13"}};
    EXPECT_NO_THROW(validate_collection(info));
}

TEST(CollectionExtensions, CoreKeysCannotBeExtensions) {
    for (const char* key : {"id", "title", "extent", "providers", "taco_version", "taco:pit_schema",
                            "taco:field_schema"}) {
        CollectionInfo info = valid_info();
        info.extensions = {{key, R"("x")"}};
        std::string msg = collection_error(info);
        EXPECT_TRUE(contains(msg, "COLLECTION field '" + std::string(key) + "'")) << msg;
        EXPECT_TRUE(contains(msg, "is a core COLLECTION key")) << msg;
    }
}

TEST(CollectionExtensions, InvalidJsonIsRejectedWithTheText) {
    CollectionInfo info = valid_info();
    info.extensions = {{"labels:classes", "{oops"}};
    std::string msg = collection_error(info);
    EXPECT_TRUE(contains(msg, "COLLECTION field 'labels:classes'")) << msg;
    EXPECT_TRUE(contains(msg, "extension value is not valid JSON: {oops")) << msg;
}

TEST(CollectionExtensions, EmptyKeyIsRejected) {
    CollectionInfo info = valid_info();
    info.extensions = {{"", "1"}};
    std::string msg = collection_error(info);
    EXPECT_TRUE(contains(msg, "extension key is empty")) << msg;
}
