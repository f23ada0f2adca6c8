#include "tests/peers/apiserver/quantity.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>

namespace gcushare::apiserver {
namespace {

struct Case {
  const char* text;
  std::optional<int64_t> milli;
};

class QuantityTest : public ::testing::TestWithParam<Case> {};

TEST_P(QuantityTest, ParsesToMilliUnits) {
  EXPECT_EQ(ParseMilliQuantity(GetParam().text), GetParam().milli)
      << GetParam().text;
}

INSTANTIATE_TEST_SUITE_P(
    Table, QuantityTest,
    ::testing::Values(Case{"0", 0}, Case{"1", 1000}, Case{"1.5", 1500},
                      Case{"100m", 100}, Case{"1Ki", 1024000},
                      Case{"16Gi", int64_t{17179869184} * 1000},
                      Case{"1536Mi", int64_t{1610612736} * 1000},
                      Case{"107374182400m", int64_t{107374182400}},
                      Case{"2k", 2000000}, Case{"1e3", 1000000},
                      Case{"1E-3", 1}, Case{"1n", 1}, Case{"-2", -2000},
                      Case{".5", 500}, Case{"", std::nullopt},
                      Case{"Gi", std::nullopt}, Case{"1GiB", std::nullopt},
                      Case{"1..2", std::nullopt}, Case{"100Ei", std::nullopt}));

TEST(QuantitySyntaxTest, MatchesTheDecoder) {
  for (const char* ok : {"16Gi", "1", "0.5", "107374182400m", "1e3", "2E-2",
                         "+3k", "100Ei", "5n"}) {
    EXPECT_EQ(QuantitySyntaxError(ok), "") << ok;
  }
  const std::string format =
      "quantities must match the regular expression "
      "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
  for (const char* bad : {"", "Gi", "16 Gi", "16GB", "1..2", "abc", "."}) {
    EXPECT_EQ(QuantitySyntaxError(bad), format) << bad;
  }
  EXPECT_EQ(QuantitySyntaxError("16Gii"), "unable to parse quantity's suffix");
  EXPECT_EQ(QuantitySyntaxError("1mi"), "unable to parse quantity's suffix");
}

}  // namespace
}  // namespace gcushare::apiserver
