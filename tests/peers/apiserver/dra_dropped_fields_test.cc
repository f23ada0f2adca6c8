#include "tests/peers/apiserver/dra_dropped_fields.h"

#include <gtest/gtest.h>

namespace gcushare::apiserver {
namespace {

Json SharedSlice() {
  return Json::parse(R"({"spec":{"devices":[{"name":"gcu-0",
      "allowMultipleAllocations":true,
      "capacity":{"memory":{"value":"16Gi","requestPolicy":{"default":"16Gi",
        "validRange":{"min":"1Gi","step":"1Gi"}}}}}]}})");
}

Json PlainSlice() {
  return Json::parse(R"({"spec":{"devices":[{"name":"gcu-0",
      "capacity":{"memory":{"value":"16Gi"}}}]}})");
}

FeatureGates Off() {
  FeatureGates gates;
  gates.dra_consumable_capacity = false;
  gates.dra_extended_resource = false;
  return gates;
}

TEST(DraDroppedFieldsTest, SliceFieldsDroppedOnlyWhenOffAndUnused) {
  Json slice = SharedSlice();
  DropDisabledSliceFields(FeatureGates(), nullptr, slice);
  EXPECT_EQ(slice, SharedSlice());  // On: untouched.

  DropDisabledSliceFields(Off(), nullptr, slice);
  EXPECT_EQ(slice, PlainSlice());

  const Json old_shared = SharedSlice();
  Json kept = SharedSlice();
  DropDisabledSliceFields(Off(), &old_shared, kept);
  EXPECT_EQ(kept, SharedSlice());

  const Json old_plain = PlainSlice();
  Json dropped = SharedSlice();
  DropDisabledSliceFields(Off(), &old_plain, dropped);
  EXPECT_EQ(dropped, PlainSlice());
}

TEST(DraDroppedFieldsTest, ClaimSpecAndStatus) {
  const Json with = Json::parse(R"({
    "spec":{"devices":{"requests":[{"name":"r","exactly":{
      "deviceClassName":"c","capacity":{"requests":{"memory":"4Gi"}}},
      "firstAvailable":[{"name":"s","capacity":{"requests":{"memory":"1"}}}]}]}},
    "status":{"allocation":{"devices":{"results":[{"request":"r",
      "shareID":"u","consumedCapacity":{"memory":"4Gi"}}]}},
      "devices":[{"driver":"d","shareID":"u"}]}})");
  const Json without = Json::parse(R"({
    "spec":{"devices":{"requests":[{"name":"r","exactly":{
      "deviceClassName":"c"},"firstAvailable":[{"name":"s"}]}]}},
    "status":{"allocation":{"devices":{"results":[{"request":"r"}]}},
      "devices":[{"driver":"d"}]}})");
  Json claim = with;
  DropDisabledClaimFields(Off(), nullptr, claim);
  EXPECT_EQ(claim, without);

  // Status results that used shares keep them on later updates.
  claim = with;
  DropDisabledClaimFields(Off(), &with, claim);
  EXPECT_EQ(claim, with);
  claim = with;
  DropDisabledClaimFields(Off(), &without, claim);
  EXPECT_EQ(claim, without);
}

TEST(DraDroppedFieldsTest, TemplateAndDeviceClass) {
  Json tmpl = Json::parse(R"({"spec":{"spec":{"devices":{"requests":[
      {"name":"r","exactly":{"capacity":{"requests":{"memory":"4Gi"}}}}]}}}})");
  DropDisabledClaimTemplateFields(Off(), nullptr, tmpl);
  EXPECT_EQ(tmpl, Json::parse(R"({"spec":{"spec":{"devices":{"requests":[
      {"name":"r","exactly":{}}]}}}})"));

  const Json with =
      Json::parse(R"({"spec":{"extendedResourceName":"enflame.com/x"}})");
  Json device_class = with;
  DropDisabledDeviceClassFields(FeatureGates(), nullptr, device_class);
  EXPECT_EQ(device_class, with);
  DropDisabledDeviceClassFields(Off(), &with, device_class);
  EXPECT_EQ(device_class, with);
  DropDisabledDeviceClassFields(Off(), nullptr, device_class);
  EXPECT_EQ(device_class, Json::parse(R"({"spec":{}})"));
}

}  // namespace
}  // namespace gcushare::apiserver
