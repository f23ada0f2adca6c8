#include "dra-driver/memory_quantity.h"

#include <gtest/gtest.h>

#include <string>

namespace gcushare::dra {
namespace {

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
      {"1e1000", "malformed exponent"},
      {"1e", "unknown suffix"},
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

}  // namespace
}  // namespace gcushare::dra
