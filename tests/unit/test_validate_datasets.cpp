// taco::validate on the reference fixtures and on what taco::create writes: the known level-1
// defect of nested.tacozip is reported exactly, everything else is clean.
#include <gtest/gtest.h>

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

TEST(ValidateDatasets, ReferenceFixturesOtherThanNestedZipAreClean) {
    for (const auto& path : all_fixtures()) {
        if (path == kNestedZip) continue;
        SCOPED_TRACE(path);
        const ValidationReport r = validate(path);
        EXPECT_TRUE(r.findings.empty()) << dump(r);
        EXPECT_TRUE(r.valid());
        EXPECT_NE(r.format, ContainerFormat::Auto);
    }
}

TEST(ValidateDatasets, ReportsTheLevel1DefectOfNestedZip) {
    const ValidationReport r = validate(kNestedZip);
    EXPECT_FALSE(r.valid());
    ASSERT_EQ(r.findings.size(), 9u) << dump(r);
    for (const auto& f : r.findings) {
        EXPECT_EQ(f.severity, Severity::Error);
        EXPECT_EQ(f.code, "zip.offset-mismatch");
        EXPECT_TRUE(contains(f.location, "METADATA/level1.parquet row ")) << f.location;
    }
    EXPECT_EQ(r.findings[0].location, "METADATA/level1.parquet row 0 (europe/item_0)");
    EXPECT_TRUE(
        contains(r.findings[0].message, "(390, 15) point at ZIP entry 'DATA/americas/item_0'"))
        << r.findings[0].message;
    EXPECT_TRUE(contains(r.findings[0].message, "expected 'DATA/europe/item_0' at (205, 13)"))
        << r.findings[0].message;
}

TEST(ValidateDatasets, CrcCheckOnTheFixtures) {
    ValidateOptions opts;
    opts.check_crc = true;
    EXPECT_TRUE(validate(kFlatZip, opts).findings.empty());
    EXPECT_TRUE(validate(kSimpleZip, opts).findings.empty());
}

TEST(ValidateDatasets, WhatCreateWritesIsClean) {
    TempDir dir;
    const std::vector<std::pair<std::string, Taco>> tacos = {
        {"flat", flat_taco(7)}, {"deep", deep_taco(3, 0)}, {"padded", deep_taco(3, 4)}};
    for (const auto& [name, taco] : tacos) {
        for (const std::string suffix : {".tacozip", "_folder"}) {
            SCOPED_TRACE(name + suffix);
            const fs::path p = dir / (name + suffix);
            create(taco, p);
            ValidateOptions opts;
            opts.check_crc = true;
            const ValidationReport r = validate(p, opts);
            EXPECT_TRUE(r.findings.empty()) << dump(r);
        }
    }
}

TEST(ValidateDatasets, MissingPathThrowsIoError) {
    EXPECT_THROW(validate("/nonexistent/thing.tacozip"), IoError);
    EXPECT_THROW(validate("/nonexistent/dir"), IoError);
}

TEST(ValidateDatasets, NotADatasetIsOneFinding) {
    TempDir dir;
    fs::create_directories(dir / "empty");
    const ValidationReport r = validate(dir / "empty");
    ASSERT_EQ(r.findings.size(), 1u);
    EXPECT_EQ(r.findings[0].code, "container");
    EXPECT_EQ(r.format, ContainerFormat::Auto);
    EXPECT_TRUE(contains(r.findings[0].message, "COLLECTION.json not found"));
}

}  // namespace
