// ISO-8601 <-> microseconds since the epoch, printed like Python's datetime.isoformat() with
// "+00:00" replaced by "Z" (FORMAT.md §5.3). Expected values were computed with Python 3.11
// datetime (e.g. datetime.fromisoformat("2024-02-29T12:34:56.789012+00:00")).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "model/time_format.hpp"

using taco::model::format_iso_utc;
using taco::model::parse_iso_utc;

namespace {
constexpr int64_t k2023 = 1672531200000000;  // 2023-01-01T00:00:00Z
}

TEST(TimeFormat, FormatsWholeSecondsWithoutFraction) {
    EXPECT_EQ(format_iso_utc(0), "1970-01-01T00:00:00Z");
    EXPECT_EQ(format_iso_utc(k2023), "2023-01-01T00:00:00Z");
    EXPECT_EQ(format_iso_utc(1709210096000000), "2024-02-29T12:34:56Z");
    EXPECT_EQ(format_iso_utc(253402300799000000), "9999-12-31T23:59:59Z");
}

TEST(TimeFormat, FormatsSixDigitMicrosecondsWhenNonZero) {
    EXPECT_EQ(format_iso_utc(1), "1970-01-01T00:00:00.000001Z");
    EXPECT_EQ(format_iso_utc(500000), "1970-01-01T00:00:00.500000Z");
    EXPECT_EQ(format_iso_utc(1709210096789012), "2024-02-29T12:34:56.789012Z");
    EXPECT_EQ(format_iso_utc(253402300799999999), "9999-12-31T23:59:59.999999Z");
}

TEST(TimeFormat, FormatsTimesBefore1970) {
    EXPECT_EQ(format_iso_utc(-1), "1969-12-31T23:59:59.999999Z");
    EXPECT_EQ(format_iso_utc(-86400000000), "1969-12-31T00:00:00Z");
    EXPECT_EQ(format_iso_utc(-14182940000000), "1969-07-20T20:17:40Z");
    EXPECT_EQ(format_iso_utc(-2208988800000000), "1900-01-01T00:00:00Z");
    EXPECT_EQ(format_iso_utc(-11670912000000000), "1600-03-01T00:00:00Z");
}

TEST(TimeFormat, YearsOutsideFourDigitsAreIsoExpandedYears) {
    using taco::model::micros_from_civil;
    EXPECT_EQ(format_iso_utc(micros_from_civil(0, 1, 1, 0, 0, 0, 0)), "0000-01-01T00:00:00Z");
    EXPECT_EQ(format_iso_utc(micros_from_civil(10000, 1, 1, 0, 0, 0, 0)), "10000-01-01T00:00:00Z");
    EXPECT_EQ(format_iso_utc(micros_from_civil(-1, 12, 31, 23, 59, 59, 7)),
              "-0001-12-31T23:59:59.000007Z");
    EXPECT_EQ(format_iso_utc(micros_from_civil(-12345, 6, 1, 1, 2, 3, 0)),
              "-12345-06-01T01:02:03Z");
}

TEST(TimeFormat, DatesAreTheDayAloneForEveryDuckDBDate) {
    using taco::model::format_iso_date;
    EXPECT_EQ(format_iso_date(0), "1970-01-01");
    EXPECT_EQ(format_iso_date(-1), "1969-12-31");
    EXPECT_EQ(format_iso_date(19'782), "2024-02-29");
    // Five digits were cut to ten characters ("10000-01-0") when dates went through a timestamp.
    EXPECT_EQ(format_iso_date(2'932'897), "10000-01-01");
    EXPECT_EQ(format_iso_date(-719'529), "-0001-12-31");
    // DuckDB's last and first finite DATEs ("5881580-07-10", "5877642-06-25 (BC)" in DuckDB),
    // beyond a timestamp's microseconds (~292,000 years).
    EXPECT_EQ(format_iso_date(2'147'483'646), "5881580-07-10");
    EXPECT_EQ(format_iso_date(-2'147'483'646), "-5877641-06-25");
}

TEST(TimeFormat, EveryFieldReadsBackOverManyInstants) {
    // Digits are placed by hand: every field of many instants, from 0001 to 9999, must parse
    // back to the instant it was printed from.
    uint64_t state = 0x9E3779B97F4A7C15ULL;
    const int64_t first = taco::model::micros_from_civil(1, 1, 1, 0, 0, 0, 0);
    const int64_t last = taco::model::micros_from_civil(9999, 12, 31, 23, 59, 59, 999999);
    for (int i = 0; i < 20000; ++i) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        const int64_t t = first + static_cast<int64_t>(state % static_cast<uint64_t>(last - first));
        const int64_t micros = i % 2 ? t : t - t % 1000000;  // with and without a fraction
        ASSERT_EQ(parse_iso_utc(format_iso_utc(micros)), micros) << format_iso_utc(micros);
    }
}

TEST(TimeParse, DateOnlyIsMidnightUtc) {
    EXPECT_EQ(parse_iso_utc("2023-01-01"), k2023);
    EXPECT_EQ(parse_iso_utc("1970-01-01"), 0);
    EXPECT_EQ(parse_iso_utc("2000-02-29"), 951782400000000);
}

TEST(TimeParse, NaiveAndZuluAreUtc) {
    EXPECT_EQ(parse_iso_utc("2023-01-01T00:00:00Z"), k2023);
    EXPECT_EQ(parse_iso_utc("2023-01-01T00:00:00z"), k2023);
    EXPECT_EQ(parse_iso_utc("2023-01-01T00:00:00"), k2023);
    EXPECT_EQ(parse_iso_utc("2023-01-01 00:00:00"), k2023);
    EXPECT_EQ(parse_iso_utc("2023-01-01T00:00"), k2023);
    EXPECT_EQ(parse_iso_utc("2023-01-01T00:00Z"), k2023);
}

TEST(TimeParse, OffsetsAreSubtracted) {
    EXPECT_EQ(parse_iso_utc("2023-01-01T02:00:00+02:00"), k2023);
    EXPECT_EQ(parse_iso_utc("2022-12-31T19:00:00-05:00"), k2023);
    EXPECT_EQ(parse_iso_utc("2023-01-01T05:30:00+05:30"), k2023);
    EXPECT_EQ(parse_iso_utc("2023-01-01T02:00:00+0200"), k2023);
    EXPECT_EQ(parse_iso_utc("2023-01-01T02:00:00+02"), k2023);
    EXPECT_EQ(parse_iso_utc("2023-01-01T00:00:00+00:00"), k2023);
    EXPECT_EQ(parse_iso_utc("2023-01-01T00:00:00-00:00"), k2023);
}

TEST(TimeParse, FractionsUpToMicroseconds) {
    EXPECT_EQ(parse_iso_utc("2023-01-01T00:00:00.5Z"), k2023 + 500000);
    EXPECT_EQ(parse_iso_utc("2023-01-01T00:00:00.000001"), k2023 + 1);
    EXPECT_EQ(parse_iso_utc("2023-01-01T00:00:00.123456+00:00"), k2023 + 123456);
    EXPECT_EQ(parse_iso_utc("2023-01-01T00:00:00.123456789"), k2023 + 123456);  // truncated
}

TEST(TimeParse, TimesBefore1970) {
    EXPECT_EQ(parse_iso_utc("1969-12-31T23:59:59.999999Z"), -1);
    EXPECT_EQ(parse_iso_utc("1969-07-20T20:17:40"), -14182940000000);
    EXPECT_EQ(parse_iso_utc("1900-01-01"), -2208988800000000);
}

TEST(TimeParse, RoundTripsWithFormat) {
    const std::vector<int64_t> values = {0,
                                         1,
                                         -1,
                                         k2023,
                                         k2023 + 999999,
                                         1709210096789012,
                                         -14182940000000,
                                         -2208988800000001,
                                         -11670912000000000,
                                         253402300799999999};
    for (int64_t v : values) {
        std::string text = format_iso_utc(v);
        EXPECT_EQ(parse_iso_utc(text), v) << text;
    }
    for (const char* text : {"2023-01-01T00:00:00Z", "1969-12-31T23:59:59.999999Z",
                             "2024-02-29T12:34:56.789012Z", "1600-03-01T00:00:00Z"}) {
        auto v = parse_iso_utc(text);
        ASSERT_TRUE(v.has_value()) << text;
        EXPECT_EQ(format_iso_utc(*v), text);
    }
}

TEST(TimeParse, RejectsMalformedText) {
    for (const char* text :
         {"", "yesterday", "2023", "2023-01", "2023-1-01", "2023/01/01", " 2023-01-01",
          "2023-01-01 ", "2023-01-01T", "2023-01-01T12", "2023-01-01T12:3", "2023-01-01T00:00:00.",
          "2023-01-01T00:00:00Zjunk", "2023-01-01T00:00:00+2", "2023-01-01T00:00:00+02:0",
          "01/02/2020", "2023-01-01X00:00:00"}) {
        EXPECT_FALSE(parse_iso_utc(text).has_value()) << "'" << text << "'";
    }
}

TEST(TimeParse, RejectsOutOfRangeFields) {
    for (const char* text : {"2023-13-01", "2023-00-10", "2023-01-00", "2023-01-32",
                             "2023-01-01T24:00:00", "2023-01-01T12:60:00", "2023-01-01T12:00:61"}) {
        EXPECT_FALSE(parse_iso_utc(text).has_value()) << text;
    }
}

TEST(TimeParse, RejectsDaysBeyondTheEndOfTheMonth) {
    // Python: datetime.fromisoformat("2023-02-30") -> ValueError: day is out of range for month
    for (const char* text :
         {"2023-02-29", "2023-02-30", "1900-02-29", "2023-04-31", "2023-11-31"}) {
        EXPECT_FALSE(parse_iso_utc(text).has_value()) << text;
    }
    for (const char* text : {"2024-02-29", "2000-02-29", "2023-01-31", "2023-12-31"}) {
        EXPECT_TRUE(parse_iso_utc(text).has_value()) << text;
    }
}
