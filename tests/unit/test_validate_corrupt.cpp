// taco::validate on damaged copies of the fixtures: each kind of damage gives its finding, with
// the location and the facts a user needs.
#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "reader_test_util.hpp"

using namespace taco;
using namespace taco::test;

namespace {

std::string dump(const ValidationReport& r) {
    std::string out;
    for (const auto& f : r.findings) {
        out += std::string(to_string(f.severity)) + " " + f.code + " @ " + f.location + ": " +
               f.message + "\n";
    }
    return out;
}

// The first finding with `code`, or a test failure.
// Rewrites a dataset's COLLECTION.json with each `from` replaced by its `to` (the first
// occurrence; a `from` the file does not hold fails the test, so an edit never silently misses).
void edit_collection(const fs::path& dataset,
                     std::initializer_list<std::pair<std::string_view, std::string_view>> edits) {
    std::string text = slurp(dataset / "COLLECTION.json");
    for (const auto& [from, to] : edits) {
        const size_t at = text.find(from);
        if (at == std::string::npos)
            throw std::runtime_error("COLLECTION.json has no " + std::string(from));
        text.replace(at, from.size(), to);
    }
    spit(dataset / "COLLECTION.json", text);
}

const Finding* find(const ValidationReport& r, const std::string& code) {
    for (const auto& f : r.findings)
        if (f.code == code) return &f;
    ADD_FAILURE() << "no finding '" << code << "' in:\n" << dump(r);
    return nullptr;
}

void rewrite_parquet(const fs::path& target, const std::string& source, const std::string& select) {
    duck("COPY (" + select + " FROM read_parquet('" + source + "')) TO '" + target.string() +
         "' (FORMAT parquet)");
}

// --- ZIP
// ------------------------------------------------------------------------------------------

TEST(ValidateCorrupt, HeaderCrcMismatch) {
    TempDir dir;
    std::string bytes = slurp(kFlatZip);
    put_le(bytes, 14, 0x12345678, 4);
    spit(dir / "crc.tacozip", bytes);
    const ValidationReport r = validate(dir / "crc.tacozip");
    const Finding* f = find(r, "zip.header-crc");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->location, "TACO_HEADER");
    EXPECT_TRUE(contains(f->message, std::to_string(0x12345678))) << f->message;
    EXPECT_FALSE(r.valid());
}

TEST(ValidateCorrupt, BrokenHeaderSignature) {
    TempDir dir;
    std::string bytes = slurp(kFlatZip);
    bytes[0] = 'Q';
    spit(dir / "sig.tacozip", bytes);
    const ValidationReport r = validate(dir / "sig.tacozip");
    const Finding* f = find(r, "zip.header");
    ASSERT_TRUE(f);
    EXPECT_TRUE(contains(f->message, "signature")) << f->message;
}

TEST(ValidateCorrupt, TruncatedZip) {
    TempDir dir;
    spit(dir / "cut.tacozip", slurp(kFlatZip).substr(0, 7000));
    const ValidationReport r = validate(dir / "cut.tacozip");
    EXPECT_TRUE(find(r, "zip.directory"));
    const Finding* slot = find(r, "zip.header-slot");
    ASSERT_TRUE(slot);
    EXPECT_TRUE(contains(slot->message,
                         "COLLECTION.json at (6238, 2451) lies outside the file (7000 bytes)"))
        << slot->message;
}

TEST(ValidateCorrupt, HeaderSlotDisagreesWithTheDirectory) {
    TempDir dir;
    std::string bytes = slurp(kFlatZip);
    put_le(bytes, 45, 200, 8);
    spit(dir / "slot.tacozip", bytes);
    const ValidationReport r = validate(dir / "slot.tacozip");
    const Finding* f = find(r, "zip.header-slot");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->location, "TACO_HEADER slot 0");
    EXPECT_TRUE(contains(f->message, "its ZIP entry is at (490, 5703)")) << f->message;
    EXPECT_TRUE(find(r, "table.unreadable"));
}

TEST(ValidateCorrupt, CompressedEntry) {
    TempDir dir;
    std::string bytes = slurp(kFlatZip);
    const size_t lfh_name = bytes.find("DATA/sample_0");
    const size_t cd_name = bytes.find("DATA/sample_0", lfh_name + 1);
    ASSERT_NE(cd_name, std::string::npos);
    put_le(bytes, lfh_name - 30 + 8, 8, 2);  // local header: method deflate
    put_le(bytes, cd_name - 46 + 10, 8, 2);  // central directory: method deflate
    spit(dir / "deflate.tacozip", bytes);
    const ValidationReport r = validate(dir / "deflate.tacozip");
    const Finding* f = find(r, "zip.compression");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->location, "DATA/sample_0");
    EXPECT_TRUE(contains(f->message, "STORE")) << f->message;
}

TEST(ValidateCorrupt, DataCrcWithCheckCrc) {
    TempDir dir;
    std::string bytes = slurp(kFlatZip);
    bytes[200] ^= 0x55;  // first byte of DATA/sample_0
    spit(dir / "bits.tacozip", bytes);
    EXPECT_TRUE(validate(dir / "bits.tacozip").findings.empty());
    ValidateOptions opts;
    opts.check_crc = true;
    const ValidationReport r = validate(dir / "bits.tacozip", opts);
    const Finding* f = find(r, "zip.crc");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->location, "DATA/sample_0");
}

TEST(ValidateCorrupt, FindingsPerCheckAreCapped) {
    ValidateOptions opts;
    opts.max_per_check = 2;
    const ValidationReport r = validate(kNestedZip, opts);
    ASSERT_EQ(r.findings.size(), 3u) << dump(r);
    EXPECT_EQ(r.suppressed, 7u);
    EXPECT_TRUE(contains(r.findings[2].message, "7 more finding(s)")) << r.findings[2].message;
    EXPECT_EQ(r.findings[2].severity, Severity::Error);
}

// --- FOLDER
// ---------------------------------------------------------------------------------------

TEST(ValidateCorrupt, MissingAndStrayFiles) {
    TempDir dir;
    const fs::path copy = copy_fixture(kFlatFolder, dir);
    fs::remove(copy / "DATA" / "sample_3");
    spit(copy / "DATA" / "stray.bin", "x");
    const ValidationReport r = validate(copy);
    const Finding* missing = find(r, "folder.missing-file");
    ASSERT_TRUE(missing);
    EXPECT_EQ(missing->location, "METADATA/level0.parquet row 3 (sample_3)");
    const Finding* stray = find(r, "folder.unreferenced");
    ASSERT_TRUE(stray);
    EXPECT_EQ(stray->severity, Severity::Warning);
    EXPECT_EQ(stray->location, "DATA/stray.bin");
}

TEST(ValidateCorrupt, MissingCollection) {
    TempDir dir;
    const fs::path copy = copy_fixture(kFlatFolder, dir);
    fs::rename(copy / "COLLECTION.json", dir / "elsewhere.json");
    // Without COLLECTION.json the directory is not recognisable as a dataset at all.
    const ValidationReport r = validate(copy);
    const Finding* f = find(r, "container");
    ASSERT_TRUE(f);
    EXPECT_TRUE(contains(f->message, "COLLECTION.json not found"));
}

TEST(ValidateCorrupt, CollectionProblems) {
    TempDir dir;
    const fs::path copy = copy_fixture(kNestedFolder, dir);
    edit_collection(copy, {{"\"n\": 3", "\"n\": 4"},
                           {"\"licenses\"", "\"licensez\""},
                           {"\"location\"", "\"locution\""}});
    const ValidationReport r = validate(copy);
    const Finding* pit = find(r, "collection.pit-schema");
    ASSERT_TRUE(pit);
    EXPECT_TRUE(contains(pit->message, "root.n is 4, but METADATA/level0.parquet has 3 rows"))
        << pit->message;
    const Finding* field = find(r, "collection.field");
    ASSERT_TRUE(field);
    EXPECT_TRUE(contains(field->message, "'licenses' is missing")) << field->message;
    const Finding* fs_finding = find(r, "collection.field-schema");
    ASSERT_TRUE(fs_finding);
    EXPECT_TRUE(contains(dump(r), "lists column 'locution'")) << dump(r);
    EXPECT_TRUE(contains(dump(r), "does not list column 'location'")) << dump(r);
}

TEST(ValidateCorrupt, MalformedCollection) {
    TempDir dir;
    const fs::path copy = copy_fixture(kFlatFolder, dir);
    spit(copy / "COLLECTION.json", "{\"id\": \"x\",");
    const ValidationReport r = validate(copy);
    const Finding* f = find(r, "collection.json");
    ASSERT_TRUE(f);
    EXPECT_TRUE(contains(f->message, "malformed JSON")) << f->message;
    // The tables are still checked.
    EXPECT_EQ(r.count(Severity::Error), 1u) << dump(r);
}

TEST(ValidateCorrupt, MetaDisagreesWithTheLevelTable) {
    TempDir dir;
    const fs::path copy = copy_fixture(kNestedFolder, dir);
    rewrite_parquet(copy / "DATA" / "asia" / "__meta__", kNestedFolder + "/DATA/asia/__meta__",
                    "SELECT * REPLACE (CASE WHEN id = 'item_1' THEN 'item_9' ELSE id END AS id, "
                    "CAST(cloud_cover AS VARCHAR) AS cloud_cover)");
    const ValidationReport r = validate(copy);
    const Finding* children = find(r, "meta.children");
    ASSERT_TRUE(children);
    EXPECT_EQ(children->location, "DATA/asia/__meta__ row 1");
    EXPECT_TRUE(contains(children->message, "'item_9'")) << children->message;
    const Finding* schema = find(r, "pit.schema");
    ASSERT_TRUE(schema);
    EXPECT_TRUE(contains(schema->message, "column 'cloud_cover' has type VARCHAR"))
        << schema->message;
    EXPECT_TRUE(contains(schema->message, "DOUBLE")) << schema->message;
}

// A level's __meta__ files share one schema, so validate asks DuckDB for the schema of one of
// them (format::ParquetFooter::table_bytes): a damaged one must still be found, whether its footer
// is gone (not Parquet at all) or intact with its first page broken.
TEST(ValidateCorrupt, UnreadableMetaFiles) {
    TempDir dir;
    const fs::path copy = copy_fixture(kNestedFolder, dir);
    spit(copy / "DATA" / "asia" / "__meta__", "not parquet at all");
    std::string europe = slurp(copy / "DATA" / "europe" / "__meta__");
    ASSERT_GT(europe.size(), 40u);
    europe.replace(4, 36, std::string(36, '\xff'));
    spit(copy / "DATA" / "europe" / "__meta__", europe);
    const ValidationReport r = validate(copy);
    std::vector<std::string> unreadable;
    for (const auto& f : r.findings)
        if (f.code == "meta.unreadable") unreadable.push_back(f.location);
    std::sort(unreadable.begin(), unreadable.end());
    EXPECT_EQ(unreadable, (std::vector<std::string>{"DATA/asia/__meta__", "DATA/europe/__meta__"}))
        << dump(r);
    EXPECT_FALSE(r.valid());
}

TEST(ValidateCorrupt, RowProblemsInALevelTable) {
    TempDir dir;
    const fs::path copy = copy_fixture(kNestedFolder, dir);
    rewrite_parquet(copy / "METADATA" / "level1.parquet",
                    kNestedFolder + "/METADATA/level1.parquet",
                    "SELECT * REPLACE ("
                    "CASE WHEN \"internal:current_id\" = 1 THEN 'europe/item_x' ELSE "
                    "\"internal:relative_path\" END "
                    "AS \"internal:relative_path\", "
                    "CASE WHEN \"internal:current_id\" = 8 THEN 7 ELSE \"internal:parent_id\" END "
                    "AS \"internal:parent_id\")");
    const ValidationReport r = validate(copy);
    const Finding* rel = find(r, "row.relative-path");
    ASSERT_TRUE(rel);
    EXPECT_EQ(rel->location, "METADATA/level1.parquet row 1 (europe/item_1)");
    EXPECT_TRUE(contains(rel->message, "is 'europe/item_x', expected 'europe/item_1'"))
        << rel->message;
    const Finding* parent = find(r, "row.parent");
    ASSERT_TRUE(parent);
    EXPECT_TRUE(
        contains(parent->message, "internal:parent_id 7 is not a row of METADATA/level0.parquet"))
        << parent->message;
}

TEST(ValidateCorrupt, DuplicateIdsAndBadTypes) {
    TempDir dir;
    const fs::path copy = copy_fixture(kFlatFolder, dir);
    rewrite_parquet(
        copy / "METADATA" / "level0.parquet", kFlatFolder + "/METADATA/level0.parquet",
        "SELECT * REPLACE (CASE WHEN id = 'sample_1' THEN 'sample_0' ELSE id END AS id, "
        "CASE WHEN id = 'sample_4' THEN 'BLOB' ELSE type END AS type)");
    const ValidationReport r = validate(copy);
    const Finding* dup = find(r, "row.duplicate-id");
    ASSERT_TRUE(dup);
    EXPECT_EQ(dup->location, "METADATA/level0.parquet row 1 (sample_0)");
    const Finding* type = find(r, "row.type");
    ASSERT_TRUE(type);
    EXPECT_TRUE(contains(type->message, "'BLOB'"));
}

TEST(ValidateCorrupt, Pit1Violation) {
    TempDir dir;
    const fs::path copy = copy_fixture(kNestedFolder, dir);
    // asia's second child becomes a differently named sample, consistently everywhere.
    rewrite_parquet(copy / "METADATA" / "level1.parquet",
                    kNestedFolder + "/METADATA/level1.parquet",
                    "SELECT * REPLACE ("
                    "CASE WHEN \"internal:current_id\" = 7 THEN 'other' ELSE id END AS id, "
                    "CASE WHEN \"internal:current_id\" = 7 THEN 'asia/other' ELSE "
                    "\"internal:relative_path\" END "
                    "AS \"internal:relative_path\")");
    rewrite_parquet(copy / "DATA" / "asia" / "__meta__", kNestedFolder + "/DATA/asia/__meta__",
                    "SELECT * REPLACE (CASE WHEN id = 'item_1' THEN 'other' ELSE id END AS id)");
    fs::rename(copy / "DATA" / "asia" / "item_1", copy / "DATA" / "asia" / "other");
    const ValidationReport r = validate(copy);
    // Only PIT-1: the pit_schema lists the first complete folder's children (europe's), as the
    // reference writer derives it, so it still agrees with the tables.
    ASSERT_EQ(r.count(Severity::Error), 1u) << dump(r);
    const Finding* pit = find(r, "pit.children");
    ASSERT_TRUE(pit);
    EXPECT_EQ(pit->location, "METADATA/level1.parquet row 7 (asia/other)");
    EXPECT_TRUE(contains(pit->message, "PIT-1")) << pit->message;
    EXPECT_TRUE(contains(pit->message, "'europe/item_1'")) << pit->message;
}

TEST(ValidateCorrupt, MissingRequiredColumns) {
    TempDir dir;
    const fs::path copy = copy_fixture(kNestedFolder, dir);
    rewrite_parquet(copy / "METADATA" / "level1.parquet",
                    kNestedFolder + "/METADATA/level1.parquet",
                    "SELECT * EXCLUDE (\"internal:parent_id\", \"internal:current_id\")");
    const ValidationReport r = validate(copy);
    bool parent_error = false, current_info = false;
    for (const auto& f : r.findings) {
        if (f.code != "table.column" || f.location != "METADATA/level1.parquet") continue;
        parent_error |=
            f.severity == Severity::Error && contains(f.message, "'internal:parent_id'");
        current_info |=
            f.severity == Severity::Info && contains(f.message, "'internal:current_id'");
    }
    EXPECT_TRUE(parent_error) << dump(r);
    EXPECT_TRUE(current_info) << dump(r);
}

}  // namespace

// A field_schema key "level" + more digits than stoul takes threw std::out_of_range out of
// validate() instead of reporting a level the dataset does not have.
TEST(ValidateCorrupt, AFieldSchemaLevelBeyondAnyIntegerIsAFinding) {
    TempDir dir;
    const fs::path copy = copy_fixture(kNestedFolder, dir);
    edit_collection(copy, {{"\"level1\"", "\"level123456789012345678901234567890\""}});
    const ValidationReport r = validate(copy);
    EXPECT_TRUE(contains(dump(r), "describes a level the dataset does not have")) << dump(r);
}

// A column whose type has no TACO value type (here UTINYINT, TIME, UUID from a foreign writer)
// is a warning that readers convert it; the types TACO has beyond the basic ones (DATE,
// TIMESTAMPTZ, DECIMAL, STRUCT, MAP, fixed-size lists, lists of them) are not: taco::create
// writes them, so validating its own output warned (2026-12-02).
TEST(ValidateCorrupt, ColumnTypesWithoutATacoEquivalentWarn) {
    TempDir dir;
    const fs::path copy = copy_fixture(kFlatFolder, dir);
    rewrite_parquet(
        copy / "METADATA" / "level0.parquet", kFlatFolder + "/METADATA/level0.parquet",
        "SELECT *, 7::UTINYINT AS small, TIME '10:00:00' AS at, "
        "uuid() AS u, DATE '2020-01-01' AS day, TIMESTAMPTZ '2020-01-01 00:00:00+00' AS "
        "instant, 1.25::DECIMAL(5, 2) AS price, {'a': 1, 'b': [DATE '2020-01-02']} AS "
        "nested, MAP {'k': 1.5} AS m, [1, 2]::INTEGER[2] AS pair");
    const ValidationReport r = validate(copy);
    std::vector<std::string> warned;
    for (const auto& f : r.findings) {
        if (f.code != "table.column-type") continue;
        EXPECT_EQ(f.severity, Severity::Warning) << f.message;
        warned.push_back(f.message.substr(
            f.message.find('\'') + 1,
            f.message.find('\'', f.message.find('\'') + 1) - f.message.find('\'') - 1));
    }
    EXPECT_EQ(warned, (std::vector<std::string>{"small", "at", "u"})) << dump(r);
}
