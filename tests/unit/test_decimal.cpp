// parse_decimal: the one parser of whole numbers in untrusted text (hierarchy depths, field_schema
// level keys, /vsisubfile/ offsets); never throws, never wraps.
#include <gtest/gtest.h>

#include "model/decimal.hpp"

using taco::parse_decimal;

TEST(Decimal, DigitsWithinSixtyFourBits) {
    EXPECT_EQ(parse_decimal("0"), 0u);
    EXPECT_EQ(parse_decimal("64"), 64u);
    EXPECT_EQ(parse_decimal("0000000000000000000000000000005"),
              5u);  // leading zeros are no overflow
    EXPECT_EQ(parse_decimal("18446744073709551615"), UINT64_MAX);
}

TEST(Decimal, AnythingElseIsNoNumber) {
    for (const char* text : {"", "18446744073709551616", "123456789012345678901234567890", "-1",
                             "+1", " 1", "1 ", "1a", "0x10", "1.0"}) {
        EXPECT_FALSE(parse_decimal(text).has_value()) << "'" << text << "'";
    }
}
