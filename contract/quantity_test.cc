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
  };
  for (const auto& [text, why] : cases) {
    StatusOr<uint64_t> got = ParseIntegerQuantity(text);
    ASSERT_FALSE(got.ok()) << text;
    EXPECT_NE(got.status().message().find(why), std::string::npos)
        << text << ": " << got.status();
  }
}

}  // namespace
}  // namespace gcushare::contract
