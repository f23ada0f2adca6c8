#include "contract/quantity.h"

#include <gtest/gtest.h>

namespace gcushare::contract {
namespace {

TEST(QuantityTest, WholeNumbers) {
  const std::pair<const char*, uint64_t> cases[] = {
      {"0", 0},      {"4", 4},      {"+4", 4},       {"160", 160},
      {"1k", 1000},  {"2Ki", 2048}, {"1M", 1000000}, {"1Mi", 1048576},
      {"1e3", 1000}, {"1E2", 100},  {"2000m", 2},    {"1.5k", 1500},
      {"0.0", 0},    {"007", 7},    {"1.000", 1},    {"3G", 3000000000},
      {"1E+2", 100}, {"1e-0", 1},   {".5k", 500},    {"5.", 5},
  };
  for (const auto& [text, want] : cases) {
    StatusOr<uint64_t> got = ParseIntegerQuantity(text);
    ASSERT_TRUE(got.ok()) << text << ": " << got.status();
    EXPECT_EQ(*got, want) << text;
  }
}

TEST(QuantityTest, Rejects) {
  const std::pair<const char*, const char*> cases[] = {
      {"", "empty"},
      {"-1", "negative"},
      {"0.5", "not a whole number"},
      {"1500m", "not a whole number"},
      {"abc", "no digits"},
      {"4GB", "unknown suffix"},
      {"1e", "unknown suffix"},
      {"99999999999999999999", "too large"},
      {"20Ei", "too large"},
      {"1e+", "malformed exponent"},
      {"1e5x", "malformed exponent"},
      {"1e-+5", "malformed exponent"},
  };
  for (const auto& [text, why] : cases) {
    StatusOr<uint64_t> got = ParseIntegerQuantity(text);
    ASSERT_FALSE(got.ok()) << text;
    EXPECT_NE(got.status().message().find(why), std::string::npos)
        << text << ": " << got.status();
  }
}

// apimachinery's small suffixes (suffix.go): n = 10^-9, u = 10^-6.
TEST(QuantityTest, NanoAndMicro) {
  const std::pair<const char*, uint64_t> cases[] = {
      {"1000000000n", 1},
      {"2000000u", 2},
      {"0n", 0},
      {"3000000000000n", 3000},
  };
  for (const auto& [text, want] : cases) {
    StatusOr<uint64_t> got = ParseIntegerQuantity(text);
    ASSERT_TRUE(got.ok()) << text << ": " << got.status();
    EXPECT_EQ(*got, want) << text;
  }
  EXPECT_FALSE(ParseIntegerQuantity("1u").ok());
  EXPECT_FALSE(ParseIntegerQuantity("1500000n").ok());
}

// Negative zero is zero (apimachinery parses "-0" to 0, which passes the API
// server's non-negative check); any other negative value is refused.
TEST(QuantityTest, NegativeZero) {
  for (const char* text : {"-0", "-0.0", "-000", "-0e5", "-0Ki", "-0.000m"}) {
    StatusOr<uint64_t> got = ParseIntegerQuantity(text);
    ASSERT_TRUE(got.ok()) << text << ": " << got.status();
    EXPECT_EQ(*got, 0u) << text;
  }
  for (const char* text : {"-1", "-0.001", "-1n", "-9223372036854775808"}) {
    StatusOr<uint64_t> got = ParseIntegerQuantity(text);
    ASSERT_FALSE(got.ok()) << text;
    EXPECT_NE(got.status().message().find("negative"), std::string::npos)
        << text << ": " << got.status();
  }
}

// The 64-bit limits and the suffixes' largest exact values.
TEST(QuantityTest, SixtyFourBitLimits) {
  const std::pair<const char*, uint64_t> cases[] = {
      {"18446744073709551615", 18446744073709551615u},
      {"9223372036854775807", 9223372036854775807u},
      {"9223372036854775808", 9223372036854775808u},
      {"184467440737095516150e-1", 18446744073709551615u},
      {"18446744073709551615000m", 18446744073709551615u},
      {"0018446744073709551615", 18446744073709551615u},
      {"15Ei", uint64_t{15} << 60},
      {"16383Pi", uint64_t{16383} << 50},
      {"18E", 18000000000000000000u},
      {"1e19", 10000000000000000000u},
      {"18446744073709551615e0", 18446744073709551615u},
  };
  for (const auto& [text, want] : cases) {
    StatusOr<uint64_t> got = ParseIntegerQuantity(text);
    ASSERT_TRUE(got.ok()) << text << ": " << got.status();
    EXPECT_EQ(*got, want) << text;
  }
  for (const char* text :
       {"18446744073709551616", "16Ei", "19E", "1e20", "2e19", "16384Pi",
        "18446744073709551615Ki", "1844674407370955161.6e1"}) {
    StatusOr<uint64_t> got = ParseIntegerQuantity(text);
    ASSERT_FALSE(got.ok()) << text;
    EXPECT_NE(got.status().message().find("too large"), std::string::npos)
        << text << ": " << got.status();
  }
}

// Exponents at and past the int32 range apimachinery keeps them in. The old
// parser overflowed an int computing "-fraction digits + exponent" (UBSan,
// through the extender's fuzz targets).
TEST(QuantityTest, ExtremeExponents) {
  for (const char* text : {"0e2147483647", "0e-2147483648", "0.0e+2147483647",
                           "-0e-2147483648", "0E2147483647"}) {
    StatusOr<uint64_t> got = ParseIntegerQuantity(text);
    ASSERT_TRUE(got.ok()) << text << ": " << got.status();
    EXPECT_EQ(*got, 0u) << text;
  }
  // Leading zeros in an exponent are digits like any other (Go's ParseInt).
  EXPECT_EQ(*ParseIntegerQuantity("1e" + std::string(1000, '0') + "1"), 10u);
  const std::pair<const char*, const char*> bad[] = {
      {"1e2147483647", "too large"},
      {"1.5e2147483647", "too large"},
      {"1e-2147483648", "not a whole number"},
      {"1.5e-2147483648", "not a whole number"},
      {"0.0000000001e-2147483648", "not a whole number"},
      {"1e308", "too large"},
      {"1e-308", "not a whole number"},
      {"1e2147483648", "exponent out of range"},
      {"1e-2147483649", "exponent out of range"},
      {"0e2147483648", "exponent out of range"},
      {"1e4294967296", "exponent out of range"},  // Wraps to 1 upstream.
      {"1e9223372036854775807", "exponent out of range"},
      {"1e-9223372036854775808", "exponent out of range"},
      {"1e18446744073709551616", "exponent out of range"},
  };
  for (const auto& [text, why] : bad) {
    StatusOr<uint64_t> got = ParseIntegerQuantity(text);
    ASSERT_FALSE(got.ok()) << text;
    EXPECT_NE(got.status().message().find(why), std::string::npos)
        << text << ": " << got.status();
  }
}

// Digit runs far past any limit: a clear error or the exact value, never a
// wrapped one.
TEST(QuantityTest, HugeDigitRuns) {
  const std::string zeros(100000, '0');
  EXPECT_EQ(*ParseIntegerQuantity(zeros), 0u);
  EXPECT_EQ(*ParseIntegerQuantity(zeros + "7"), 7u);
  EXPECT_EQ(*ParseIntegerQuantity("7." + zeros), 7u);
  EXPECT_EQ(*ParseIntegerQuantity("7" + zeros + "e-100000"), 7u);
  EXPECT_EQ(*ParseIntegerQuantity("1" + zeros + "e-99999"), 10u);
  EXPECT_EQ(*ParseIntegerQuantity("0." + zeros + "1e100001"), 1u);
  const std::pair<std::string, const char*> bad[] = {
      {"1" + zeros, "too large"},
      {"1" + zeros + "e-99980", "too large"},
      {"0." + zeros + "1", "not a whole number"},
      {std::string(100000, '9'), "too large"},
  };
  for (const auto& [text, why] : bad) {
    StatusOr<uint64_t> got = ParseIntegerQuantity(text);
    ASSERT_FALSE(got.ok()) << text.substr(0, 20);
    EXPECT_NE(got.status().message().find(why), std::string::npos)
        << got.status().message().substr(0, 200);
  }
}

}  // namespace
}  // namespace gcushare::contract
