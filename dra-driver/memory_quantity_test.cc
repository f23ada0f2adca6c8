#include "dra-driver/memory_quantity.h"

#include <gtest/gtest.h>

#include <string>

namespace gcushare::dra {
namespace {

contract::MemoryUnit Unit(std::string_view text) {
  return contract::MemoryUnit::Parse(text).value();
}

constexpr uint64_t kGi = uint64_t{1} << 30;

TEST(MemoryQuantityTest, ParsesExactly) {
  struct Case {
    std::string text;
    uint64_t millibytes;
  } cases[] = {
      {"0", 0},
      {"4Gi", 4 * kGi * 1000},
      {"16Gi", 16 * kGi * 1000},
      {"4294967296", 4 * kGi * 1000},
      {"107374182400m", 107374182400},  // 0.1 GiB, canonical form.
      {"429496729600m", 429496729600},  // 0.4 GiB.
      {"0.1Gi", 107374182400},
      {"1536Mi", 1536ull * 1048576 * 1000},
      {"1.5Gi", 1536ull * 1048576 * 1000},
      {"2k", 2000000},
      {"1e9", 1000000000000},
      {"1E3", 1000000},
      {"+1Ki", 1024000},
      {"1.5", 1500},
      {"1m", 1},
      {"1500e-3", 1500},
  };
  for (const Case& c : cases) {
    StatusOr<uint64_t> got = ParseMemoryMillibytes(c.text);
    ASSERT_TRUE(got.ok()) << c.text << ": " << got.status();
    EXPECT_EQ(*got, c.millibytes) << c.text;
  }
}

TEST(MemoryQuantityTest, RefusesBadQuantities) {
  struct Case {
    std::string text;
    std::string why;
  } cases[] = {
      {"", "no digits"},
      {"Gi", "no digits"},
      {"-1Gi", "negative"},
      {"1Xi", "unknown suffix"},
      {"4 Gi", "unknown suffix"},
      {"0.5m", "finer than a millibyte"},
      {"1e-4", "finer than a millibyte"},
      {"16Ei", "too large"},
      {"99999999999999999999", "too large"},
      {"1e1000", "too large"},  // A well-formed exponent (int32).
      {"1e", "malformed exponent"},
      {"1.2.3", "unknown suffix"},
  };
  for (const Case& c : cases) {
    StatusOr<uint64_t> got = ParseMemoryMillibytes(c.text);
    ASSERT_FALSE(got.ok()) << c.text;
    EXPECT_NE(got.status().message().find(c.why), std::string::npos)
        << c.text << ": " << got.status();
    EXPECT_NE(got.status().message().find("\"" + c.text + "\""),
              std::string::npos)
        << got.status();
  }
}

TEST(MemoryQuantityTest, ConvertsMib) {
  EXPECT_EQ(MillibytesOfMib(16384), 16 * kGi * 1000);
  EXPECT_EQ(MibOfMillibytes(16 * kGi * 1000), 16384u);
  // 0.4 GiB rounds down to 409 MiB, as MemoryUnit::MibOfUnits does.
  EXPECT_EQ(MibOfMillibytes(429496729600), 409u);
}

TEST(FormatBytesTest, CanonicalForms) {
  const struct {
    uint64_t bytes;
    std::string want;
  } kCases[] = {
      {0, "0"},
      {1023, "1023"},
      {1024, "1Ki"},
      {16ull << 30, "16Gi"},
      {15000ull << 20, "15000Mi"},
      {1536ull << 20, "1536Mi"},
      {1ull << 40, "1Ti"},
      {107374183, "107374183"},
      {17072495097, "17072495097"},
  };
  for (const auto& c : kCases) {
    EXPECT_EQ(FormatBytes(c.bytes), c.want) << c.bytes;
  }
}

TEST(UnitBytesTest, RoundsUpToWholeBytes) {
  EXPECT_EQ(UnitBytes(Unit("1")), 1073741824u);
  EXPECT_EQ(UnitBytes(Unit("0.1")), 107374183u);  // 107374182.4
  EXPECT_EQ(UnitBytes(Unit("0.01")), 10737419u);  // 10737418.24
  EXPECT_EQ(UnitBytes(Unit("0.001")), 1073742u);  // 1073741.824
}

TEST(ParseMilliValueTest, Table) {
  const struct {
    std::string text;
    int64_t want;
  } kCases[] = {
      {"0", 0},
      {"1", 1000},
      {"+2", 2000},
      {"1Gi", 1073741824000},
      {"1024Mi", 1073741824000},
      {"0.5Gi", 536870912000},
      {"107374182400m", 107374182400},
      {"1k", 1000000},
      {"1e3", 1000000},
      {"1E-3", 1},
      {"1.5", 1500},
      {"250m", 250},
      {"16Gi", 17179869184000},
  };
  for (const auto& c : kCases) {
    StatusOr<int64_t> got = ParseMilliValue(c.text);
    ASSERT_TRUE(got.ok()) << c.text << ": " << got.status();
    EXPECT_EQ(*got, c.want) << c.text;
  }
}

TEST(ParseMilliValueTest, Rejects) {
  for (std::string text :
       {"", "Gi", "-1", "1Xi", "1.2.3", "1n", "1u", "0.0001", "1e", "1e+",
        "9999999999999999999999", "100Ei", "1 Gi", "1Gib"}) {
    StatusOr<int64_t> got = ParseMilliValue(text);
    EXPECT_FALSE(got.ok()) << text;
    if (!got.ok()) {
      EXPECT_EQ(got.status().code(), StatusCode::kInvalidArgument) << text;
    }
  }
}

TEST(SameQuantityTest, ByAmount) {
  EXPECT_TRUE(SameQuantity("1Gi", "1024Mi"));
  EXPECT_TRUE(SameQuantity("1073741824", "1Gi"));
  EXPECT_FALSE(SameQuantity("1Gi", "1G"));
  EXPECT_TRUE(SameQuantity("junk", "junk"));
  EXPECT_FALSE(SameQuantity("junk", "1Gi"));
}

}  // namespace
}  // namespace gcushare::dra
