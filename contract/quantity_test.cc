#include "contract/quantity.h"

#include <gtest/gtest.h>

namespace gcushare::contract {
namespace {

TEST(QuantityTest, WholeNumbers) {
  const std::pair<const char*, uint64_t> cases[] = {
      {"0", 0},
      {"4", 4},
      {"+4", 4},
      {"160", 160},
      {"1k", 1000},
      {"2Ki", 2048},
      {"1M", 1000000},
      {"1Mi", 1048576},
      {"1e3", 1000},
      {"1E2", 100},
      {"2000m", 2},
      {"1.5k", 1500},
      {"0.0", 0},
      {"007", 7},
      {"1.000", 1},
      {"3G", 3000000000},
      {"1E+2", 100},
      {"1e-0", 1},
      {".5k", 500},
      {"5.", 5},
      // A decimal fraction of a binary suffix can be whole (apimachinery
      // reads "0.5Ki" as 512).
      {"0.5Ki", 512},
      {"1.5Mi", 1572864},
      {"0.25Ki", 256},
      {"0.0009765625Ki", 1},
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
      {"0.1Ki", "not a whole number"},  // 102.4
      {"0.0005Ki", "not a whole number"},
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

// The decomposition every reader shares: sign, significant digits (no
// leading or trailing zeros) and the powers of 10 and 2.
TEST(DecomposeQuantityTest, Parts) {
  const struct {
    std::string text;
    bool negative;
    std::string significand;
    int64_t exp10;
    int64_t exp2;
  } cases[] = {
      {"0", false, "", 0, 0},
      {"-0.00e7", true, "", 0, 0},
      {"1500m", false, "15", -1, 0},
      {"+007.50", false, "75", -1, 0},
      {"-2Ki", true, "2", 0, 10},
      {"1.5Ei", false, "15", -1, 60},
      {"100u", false, "1", -4, 0},
      {"12e-3", false, "12", -3, 0},
      {"0.0001", false, "1", -4, 0},
      {"3E+2147483647", false, "3", 2147483647, 0},
      {"10e-2147483648", false, "1", -2147483647, 0},
      {"1" + std::string(100000, '0'), false, "1", 100000, 0},
  };
  for (const auto& c : cases) {
    StatusOr<QuantityParts> got = DecomposeQuantity(c.text);
    ASSERT_TRUE(got.ok()) << c.text.substr(0, 20) << ": " << got.status();
    EXPECT_EQ(got->negative, c.negative) << c.text.substr(0, 20);
    EXPECT_EQ(got->significand, c.significand) << c.text.substr(0, 20);
    EXPECT_EQ(got->exp10, c.exp10) << c.text.substr(0, 20);
    EXPECT_EQ(got->exp2, c.exp2) << c.text.substr(0, 20);
  }
}

// The readers share the decomposition's refusals and words.
TEST(DecomposeQuantityTest, Malformed) {
  const std::pair<const char*, const char*> cases[] = {
      {"", "empty"},
      {"-", "no digits"},
      {".", "no digits"},
      {"Ki", "no digits"},
      {"1KI", "unknown suffix \"KI\""},
      {"1 ", "unknown suffix"},
      {"1.2.3", "unknown suffix \".3\""},
      {"1e", "unknown suffix \"e\" (a malformed exponent"},
      {"1E-", "malformed exponent"},
      {"1e3.5", "malformed exponent"},
      {"1e2147483648", "exponent out of range (int32)"},
  };
  for (const auto& [text, why] : cases) {
    StatusOr<QuantityParts> parts = DecomposeQuantity(text);
    ASSERT_FALSE(parts.ok()) << text;
    EXPECT_NE(parts.status().message().find(why), std::string::npos)
        << text << ": " << parts.status();
    EXPECT_NE(parts.status().message().find("\"" + std::string(text) + "\""),
              std::string::npos)
        << parts.status();
    // The same words from both readers.
    EXPECT_EQ(ParseIntegerQuantity(text).status(), parts.status()) << text;
    EXPECT_EQ(ParseMilliQuantity(text).status(), parts.status()) << text;
  }
}

struct MilliCase {
  std::string text;
  int64_t milli;
  bool exact;
};

void ExpectMilli(const MilliCase& c) {
  StatusOr<MilliQuantity> got = ParseMilliQuantity(c.text);
  ASSERT_TRUE(got.ok()) << c.text.substr(0, 30) << ": " << got.status();
  EXPECT_EQ(got->milli, c.milli) << c.text.substr(0, 30);
  EXPECT_EQ(got->exact, c.exact) << c.text.substr(0, 30);
}

TEST(MilliQuantityTest, Exact) {
  const MilliCase cases[] = {
      {"0", 0, true},
      {"1", 1000, true},
      {"+2", 2000, true},
      {"250m", 250, true},
      {"1.5", 1500, true},
      {".001", 1, true},
      {"1000u", 1, true},
      {"1000000n", 1, true},
      {"2k", 2000000, true},
      {"1Gi", 1073741824000, true},
      {"0.1Gi", 107374182400, true},  // Canonical: "107374182400m".
      {"107374182400m", 107374182400, true},
      {"1E-3", 1, true},
      {"1500e-3", 1500, true},
      {"0.5Ki", 512000, true},
      {"0.0005Ki", 512, true},
  };
  for (const MilliCase& c : cases) ExpectMilli(c);
}

// Finer than a milli-unit: rounded UP, as Quantity.MilliValue() does (ceil
// of value * 1000), and flagged inexact. The API server stores CPU 0.0001
// as "100u"; kube-scheduler counts it as 1m.
TEST(MilliQuantityTest, RoundsUp) {
  const MilliCase cases[] = {
      {"100u", 1, false},
      {"0.0001", 1, false},
      {"1n", 1, false},
      {"1500m", 1500, true},
      {"0.5m", 1, false},
      {"1.0001", 1001, false},
      {"999999n", 1, false},
      {"1000001n", 2, false},
      {"1e-4", 1, false},
      {"1e-2147483648", 1, false},
      {"0.1Ki", 102400, true},
      {"0.000001Ki", 2, false},   // 1.024 milli-units.
      {"0.0000001Ki", 1, false},  // 0.1024 milli-units.
      {"1.0000000000000000000000001", 1001, false},
      {"9223372036854775.8069", 9223372036854775807, false},
  };
  for (const MilliCase& c : cases) ExpectMilli(c);
}

// Negative zero is zero; any other negative value is refused.
TEST(MilliQuantityTest, Negative) {
  for (const char* text : {"-0", "-0.0m", "-0e-2147483648", "-0Ei"}) {
    ExpectMilli({text, 0, true});
  }
  for (const char* text : {"-1", "-1n", "-0.0001", "-9223372036854775808m"}) {
    StatusOr<MilliQuantity> got = ParseMilliQuantity(text);
    ASSERT_FALSE(got.ok()) << text;
    EXPECT_EQ(got.status().code(), StatusCode::kInvalidArgument) << text;
    EXPECT_NE(got.status().message().find("negative"), std::string::npos)
        << text << ": " << got.status();
  }
}

// int64 milli-units: 9223372036854775807m is the largest; past it
// OutOfRange, never a wrapped value.
TEST(MilliQuantityTest, Overflow) {
  ExpectMilli({"9223372036854775807m", 9223372036854775807, true});
  ExpectMilli({"9223372036854775.807", 9223372036854775807, true});
  for (const char* text :
       {"9223372036854775808m", "9223372036854775.8071", "9223372036854776",
        "8Ei", "10E", "1e19", "18446744073709551616", "1e2147483647",
        "99999999999999999999999999"}) {
    StatusOr<MilliQuantity> got = ParseMilliQuantity(text);
    ASSERT_FALSE(got.ok()) << text;
    EXPECT_EQ(got.status().code(), StatusCode::kOutOfRange) << text;
    EXPECT_EQ(got.status().message(),
              "quantity \"" + std::string(text) + "\": too large");
  }
  ExpectMilli({"8191Ti", int64_t{8191} * (int64_t{1} << 40) * 1000, true});
}

// Exponents: anywhere in int32, zero stays zero; past it an error.
TEST(MilliQuantityTest, ExponentLimits) {
  ExpectMilli({"0e2147483647", 0, true});
  ExpectMilli({"0E-2147483648", 0, true});
  ExpectMilli({"1e15", 1000000000000000000, true});
  ExpectMilli({"1e-3", 1, true});
  ExpectMilli({"1e" + std::string(1000, '0') + "3", 1000000, true});
  for (const char* text :
       {"1e2147483648", "1e-2147483649", "0e2147483648", "1e4294967296"}) {
    StatusOr<MilliQuantity> got = ParseMilliQuantity(text);
    ASSERT_FALSE(got.ok()) << text;
    EXPECT_NE(got.status().message().find("exponent out of range"),
              std::string::npos)
        << text << ": " << got.status();
  }
}

// Digit runs far past any limit read in linear time: the exact value, the
// rounded one, or OutOfRange.
TEST(MilliQuantityTest, HugeDigitRuns) {
  const std::string zeros(100000, '0');
  ExpectMilli({zeros, 0, true});
  ExpectMilli({zeros + "7", 7000, true});
  ExpectMilli({"7." + zeros, 7000, true});
  ExpectMilli({"7" + zeros + "e-100000", 7000, true});
  ExpectMilli({"0." + zeros + "1", 1, false});
  ExpectMilli({"1." + zeros + "1", 1001, false});
  ExpectMilli({"0." + zeros + "1e100001", 1000, true});
  ExpectMilli({"0." + std::string(100000, '9') + "e3", 1000000, false});
  // 0.555... (100,000 fives) * 2^50 * 1000 = 625499948245902222.2...
  ExpectMilli(
      {"0." + std::string(100000, '5') + "Pi", 625499948245902223, false});
  for (const std::string& text :
       {"1" + zeros, std::string(100000, '9'), "1" + zeros + "e-99984"}) {
    StatusOr<MilliQuantity> got = ParseMilliQuantity(text);
    ASSERT_FALSE(got.ok()) << text.substr(0, 20);
    EXPECT_EQ(got.status().code(), StatusCode::kOutOfRange);
  }
}

// Where both read a whole number they agree: milli-units are 1000 times
// the integer.
TEST(MilliQuantityTest, AgreesWithIntegerReader) {
  for (const char* text : {"0", "7", "2Ki", "1.5k", "2000m", "3000000u", "1e3",
                           "0.5Ki", "9223372036854775", "8191Gi"}) {
    StatusOr<uint64_t> whole = ParseIntegerQuantity(text);
    StatusOr<MilliQuantity> milli = ParseMilliQuantity(text);
    ASSERT_TRUE(whole.ok()) << text << ": " << whole.status();
    ASSERT_TRUE(milli.ok()) << text << ": " << milli.status();
    EXPECT_TRUE(milli->exact) << text;
    EXPECT_EQ(static_cast<uint64_t>(milli->milli), *whole * 1000) << text;
  }
}

}  // namespace
}  // namespace gcushare::contract
