#include "tests/peers/apiserver/feature_gates.h"

#include <gtest/gtest.h>

namespace gcushare::apiserver {
namespace {

TEST(FeatureGatesTest, DefaultsAreOn) {
  auto gates = FeatureGates::Parse("");
  ASSERT_TRUE(gates.ok());
  EXPECT_TRUE(gates->dra_consumable_capacity);
  EXPECT_TRUE(gates->dra_extended_resource);
}

TEST(FeatureGatesTest, ParsesPairs) {
  auto gates = FeatureGates::Parse(
      "DRAConsumableCapacity=false, DRAExtendedResource=False");
  ASSERT_TRUE(gates.ok()) << gates.status().message();
  EXPECT_FALSE(gates->dra_consumable_capacity);
  EXPECT_FALSE(gates->dra_extended_resource);
  gates = FeatureGates::Parse("DRAExtendedResource=0,DRAExtendedResource=t");
  ASSERT_TRUE(gates.ok());
  EXPECT_TRUE(gates->dra_extended_resource);
}

TEST(FeatureGatesTest, RejectsUnknownGatesAndBadValues) {
  auto unknown = FeatureGates::Parse("DRAConsumableCapacity=true,Nope=true");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().message(), "unrecognized feature gate: Nope");
  auto bad = FeatureGates::Parse("DRAConsumableCapacity=maybe");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "invalid value of DRAConsumableCapacity=maybe, err: "
            "strconv.ParseBool: parsing \"maybe\": invalid syntax");
  EXPECT_FALSE(FeatureGates::Parse("DRAConsumableCapacity").ok());
}

}  // namespace
}  // namespace gcushare::apiserver
