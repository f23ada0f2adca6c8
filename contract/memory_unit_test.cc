#include "contract/memory_unit.h"

#include <gtest/gtest.h>

#include <limits>

namespace gcushare::contract {
namespace {

struct UnitCase {
  const char* text;
  uint64_t units_in_16g;  // A 16384 MiB card.
  uint64_t mib_of_40;
};

TEST(MemoryUnitTest, ValidUnits) {
  const UnitCase cases[] = {
      {"1", 16, 40960},
      {"0.1", 160, 4096},
      {"0.01", 1600, 409},
      {"0.001", 16384 * 1000 / 1024, 40},
  };
  for (const UnitCase& c : cases) {
    StatusOr<MemoryUnit> unit = MemoryUnit::Parse(c.text);
    ASSERT_TRUE(unit.ok()) << c.text;
    EXPECT_EQ(unit->ToString(), c.text);
    EXPECT_EQ(unit->UnitsInMib(16384), c.units_in_16g) << c.text;
    EXPECT_EQ(unit->MibOfUnits(40), c.mib_of_40) << c.text;
  }
}

TEST(MemoryUnitTest, DesignExample) {
  // "A request of 40 at 0.1 is 4 GiB."
  EXPECT_EQ(MemoryUnit::Parse("0.1")->MibOfUnits(40), 4096u);
  // 96 GiB at 0.001 is 96000 units: 16 such cards are 1.5 million.
  EXPECT_EQ(MemoryUnit::Parse("0.001")->UnitsInMib(96 * 1024), 96000u);
}

TEST(MemoryUnitTest, DefaultIsOneGiB) {
  EXPECT_EQ(MemoryUnit().ToString(), "1");
}

TEST(MemoryUnitTest, InvalidUnitsListValidOnes) {
  for (const char* bad : {"", "2", "0.5", "1.0", "0.0001", "GiB", " 1"}) {
    StatusOr<MemoryUnit> unit = MemoryUnit::Parse(bad);
    ASSERT_FALSE(unit.ok()) << bad;
    EXPECT_NE(unit.status().message().find("1, 0.1, 0.01, 0.001"),
              std::string::npos);
  }
}

// At the 64-bit limits: no product wraps on the way.
TEST(MemoryUnitTest, SixtyFourBitLimits) {
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  auto one = MemoryUnit::Parse("1");
  auto milli = MemoryUnit::Parse("0.001");
  ASSERT_TRUE(one.ok() && milli.ok());
  EXPECT_EQ(one->UnitsInMib(kMax), kMax / 1024);
  EXPECT_EQ(milli->UnitsInMib(kMax), 18014398509481983999u);  // max*1000/1024
  EXPECT_EQ(one->MibOfUnits(kMax / 1024), kMax / 1024 * 1024);
  EXPECT_EQ(one->MibOfUnits(kMax / 1024 + 1), kMax);  // Past 2^64-1.
  EXPECT_EQ(one->MibOfUnits(kMax), kMax);
  EXPECT_EQ(milli->MibOfUnits(kMax), kMax);  // max * 1.024: past 2^64-1.
  EXPECT_EQ(milli->MibOfUnits(18014398509481983999u), 18446744073709551614u);
}

}  // namespace
}  // namespace gcushare::contract
