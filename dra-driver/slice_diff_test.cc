#include "dra-driver/slice_diff.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "dra-driver/slice_builder.h"

namespace gcushare::dra {
namespace {

using nlohmann::json;

json Desired(bool taint = false) {
  efml::Inventory inventory;
  for (uint32_t i = 0; i < 2; ++i) {
    efml::Card card;
    card.index = i;
    card.uuid = "GCU-" + std::to_string(i);
    card.memory_mib = 16384;
    card.device.path = efml::DefaultDevicePath(i);
    card.healthy = !(taint && i == 1);
    inventory.cards.push_back(card);
  }
  SliceBuilderOptions options;
  options.node_name = "n1";
  options.node_uid = "u1";
  options.driver_version = "1.0.0";
  options.card_model = "S60";
  options.taint_unhealthy = taint;
  return BuildSlices(inventory, options, 1).value()[0];
}

// What a server without the DRAConsumableCapacity gate stores.
json WithoutConsumable(json slice) {
  for (json& device : slice["spec"]["devices"]) {
    device.erase("allowMultipleAllocations");
    device["capacity"]["memory"].erase("requestPolicy");
  }
  return slice;
}

TEST(SliceDiffTest, SameContentIgnoresMetadata) {
  json stored = Desired();
  stored["metadata"] = {{"name", "n1-gcu.enflame.com-abcde"},
                        {"resourceVersion", "7"},
                        {"uid", "x"}};
  EXPECT_TRUE(SameSliceContent(Desired(), stored));
}

TEST(SliceDiffTest, ZeroValuedServerFieldsAreNotAChange) {
  json stored = Desired();
  stored["spec"]["perDeviceNodeSelection"] = false;
  stored["spec"]["sharedCounters"] = json::array();
  stored["spec"]["devices"][0]["bindsToNode"] = false;
  stored["spec"]["devices"][0]["consumesCounters"] = json::array();
  EXPECT_TRUE(SameSliceContent(Desired(), stored));
  stored["spec"]["devices"][0]["bindsToNode"] = true;
  EXPECT_FALSE(SameSliceContent(Desired(), stored));
  stored = Desired();
  stored["spec"]["allNodes"] = true;
  EXPECT_FALSE(SameSliceContent(Desired(), stored));
}

TEST(SliceDiffTest, QuantitiesCompareByAmount) {
  json stored = Desired();
  stored["spec"]["devices"][0]["capacity"]["memory"]["value"] = "16384Mi";
  stored["spec"]["devices"][0]["capacity"]["memory"]["requestPolicy"]
        ["validRange"]["step"] = "1073741824";
  EXPECT_TRUE(SameSliceContent(Desired(), stored));
  stored["spec"]["devices"][0]["capacity"]["memory"]["value"] = "15Gi";
  EXPECT_FALSE(SameSliceContent(Desired(), stored));
}

TEST(SliceDiffTest, ServerTimeAddedOnTaintIsNotAChange) {
  json stored = Desired(/*taint=*/true);
  ASSERT_TRUE(stored["spec"]["devices"][1].contains("taints"));
  stored["spec"]["devices"][1]["taints"][0]["timeAdded"] =
      "2026-11-28T10:00:00Z";
  EXPECT_TRUE(SameSliceContent(Desired(true), stored));
  EXPECT_FALSE(FindDroppedFields(Desired(true), stored).any());
}

TEST(SliceDiffTest, DifferencesThatCount) {
  const std::vector<std::pair<std::string, std::function<void(json&)>>>
      kChanges = {
          {"generation", [](json& s) { s["spec"]["pool"]["generation"] = 2; }},
          {"count",
           [](json& s) { s["spec"]["pool"]["resourceSliceCount"] = 2; }},
          {"node", [](json& s) { s["spec"]["nodeName"] = "n2"; }},
          {"device removed", [](json& s) { s["spec"]["devices"].erase(1); }},
          {"device renamed",
           [](json& s) { s["spec"]["devices"][1]["name"] = "gcu-9"; }},
          {"attribute",
           [](json& s) {
             s["spec"]["devices"][0]["attributes"]["model"]["string"] = "T20";
           }},
          {"extra attribute",
           [](json& s) {
             s["spec"]["devices"][0]["attributes"]["x"] = {{"int", 1}};
           }},
          {"policy dropped",
           [](json& s) {
             s["spec"]["devices"][0]["capacity"]["memory"].erase(
                 "requestPolicy");
           }},
          {"multiple allocations dropped",
           [](json& s) {
             s["spec"]["devices"][0].erase("allowMultipleAllocations");
           }},
          {"taint added",
           [](json& s) {
             s["spec"]["devices"][0]["taints"] =
                 json::array({{{"key", "k"}, {"effect", "NoSchedule"}}});
           }},
      };
  for (const auto& [what, change] : kChanges) {
    json stored = Desired();
    change(stored);
    EXPECT_FALSE(SameSliceContent(Desired(), stored)) << what;
  }
}

TEST(SliceDiffTest, DroppedConsumableCapacity) {
  const json desired = Desired();
  const DroppedFields dropped =
      FindDroppedFields(desired, WithoutConsumable(desired));
  EXPECT_TRUE(dropped.consumable_capacity);
  EXPECT_FALSE(dropped.taints);
  EXPECT_EQ(dropped.DisabledFeatures(), "DRAConsumableCapacity");
}

TEST(SliceDiffTest, DroppedPolicyAloneIsConsumableCapacity) {
  const json desired = Desired();
  json stored = desired;
  stored["spec"]["devices"][0]["capacity"]["memory"].erase("requestPolicy");
  EXPECT_TRUE(FindDroppedFields(desired, stored).consumable_capacity);
}

TEST(SliceDiffTest, DroppedTaints) {
  const json desired = Desired(/*taint=*/true);
  json stored = desired;
  stored["spec"]["devices"][1].erase("taints");
  const DroppedFields dropped = FindDroppedFields(desired, stored);
  EXPECT_TRUE(dropped.taints);
  EXPECT_FALSE(dropped.consumable_capacity);
  EXPECT_EQ(dropped.DisabledFeatures(), "DRADeviceTaints");
  DroppedFields both = dropped;
  both |= FindDroppedFields(desired, WithoutConsumable(desired));
  EXPECT_EQ(both.DisabledFeatures(), "DRAConsumableCapacity DRADeviceTaints");
}

TEST(SliceDiffTest, NothingDroppedWhenStoredAsAsked) {
  EXPECT_FALSE(FindDroppedFields(Desired(), Desired()).any());
  // A whole-card slice asks nothing gated: nothing can be dropped.
  const json whole = WithoutConsumable(Desired());
  EXPECT_FALSE(FindDroppedFields(whole, whole).any());
}

TEST(SliceDiffTest, MalformedStoredObjectsDoNotThrow) {
  for (const json& stored :
       {json(nullptr), json::array(), json("x"), json::parse(R"({"spec": 1})"),
        json::parse(R"({"spec": {"devices": [1, {"name": 2}]}})")}) {
    EXPECT_FALSE(SameSliceContent(Desired(), stored)) << stored.dump();
    EXPECT_FALSE(FindDroppedFields(Desired(), stored).any()) << stored.dump();
  }
}

}  // namespace
}  // namespace gcushare::dra
