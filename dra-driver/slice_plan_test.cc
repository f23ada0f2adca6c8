#include "dra-driver/slice_plan.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dra-driver/slice_builder.h"
#include "dra-driver/slice_diff.h"

namespace gcushare::dra {
namespace {

using nlohmann::json;

std::vector<json> Desired(uint32_t cards, const std::string& model = "S60") {
  efml::Inventory inventory;
  for (uint32_t i = 0; i < cards; ++i) {
    efml::Card card;
    card.index = i;
    card.uuid = "GCU-" + std::to_string(i);
    card.memory_mib = 16384;
    card.device.path = efml::DefaultDevicePath(i);
    inventory.cards.push_back(card);
  }
  SliceBuilderOptions options;
  options.node_name = "n1";
  options.node_uid = "u1";
  options.driver_version = "1.0.0";
  options.card_model = model;
  return BuildSlices(inventory, options, 0).value();
}

// The slices as the server would hold them after a create at `generation`.
std::vector<json> Stored(std::vector<json> slices, int64_t generation) {
  int n = 0;
  for (json& slice : slices) {
    slice["spec"]["pool"]["generation"] = generation;
    slice["metadata"]["name"] = "n1-gcu.enflame.com-" + std::to_string(n);
    slice["metadata"]["uid"] = "uid-" + std::to_string(n);
    slice["metadata"]["resourceVersion"] = std::to_string(100 + n++);
  }
  return slices;
}

std::vector<std::string> Names(const std::vector<json>& slices) {
  std::vector<std::string> names;
  names.reserve(slices.size());
  for (const json& slice : slices) {
    names.push_back(slice["metadata"].value("name", ""));
  }
  return names;
}

TEST(SlicePlanTest, FirstPublishCreatesAtGenerationOne) {
  const SlicePlan plan = PlanSlices(Desired(200), {}, "n1");
  EXPECT_EQ(plan.generation, 1);
  ASSERT_EQ(plan.creates.size(), 2u);
  EXPECT_TRUE(plan.updates.empty());
  EXPECT_TRUE(plan.deletes.empty());
  for (const json& slice : plan.creates) {
    EXPECT_EQ(slice["spec"]["pool"]["generation"], 1);
    EXPECT_EQ(slice["metadata"]["generateName"], "n1-gcu.enflame.com-");
  }
}

TEST(SlicePlanTest, InStepMeansNothingToDo) {
  const SlicePlan plan =
      PlanSlices(Desired(200), Stored(Desired(200), 5), "n1");
  EXPECT_TRUE(plan.empty());
  EXPECT_EQ(plan.generation, 5);
}

TEST(SlicePlanTest, ChangedContentBumpsAndUpdatesEverySlice) {
  const SlicePlan plan =
      PlanSlices(Desired(200, "T20"), Stored(Desired(200), 5), "n1");
  EXPECT_EQ(plan.generation, 6);
  ASSERT_EQ(plan.updates.size(), 2u);
  EXPECT_TRUE(plan.creates.empty());
  EXPECT_TRUE(plan.deletes.empty());
  for (size_t i = 0; i < 2; ++i) {
    const json& update = plan.updates[i];
    // Stored identity and resourceVersion (optimistic concurrency) kept.
    EXPECT_EQ(update["metadata"]["name"],
              "n1-gcu.enflame.com-" + std::to_string(i));
    EXPECT_EQ(update["metadata"]["resourceVersion"], std::to_string(100 + i));
    EXPECT_EQ(update["spec"]["pool"]["generation"], 6);
    EXPECT_EQ(update["spec"]["devices"][0]["attributes"]["model"]["string"],
              "T20");
  }
}

TEST(SlicePlanTest, OneChangedSliceStillMovesTheWholePool) {
  std::vector<json> desired = Desired(200);
  desired[1]["spec"]["devices"][0]["attributes"]["model"]["string"] = "T20";
  const SlicePlan plan = PlanSlices(desired, Stored(Desired(200), 5), "n1");
  EXPECT_EQ(plan.generation, 6);
  EXPECT_EQ(plan.updates.size(), 2u);
}

TEST(SlicePlanTest, VanishedSliceIsRecreatedAndPoolBumped) {
  std::vector<json> stored = Stored(Desired(200), 5);
  stored.erase(stored.begin());  // The kubelet (or someone) deleted it.
  const SlicePlan plan = PlanSlices(Desired(200), stored, "n1");
  EXPECT_EQ(plan.generation, 6);
  ASSERT_EQ(plan.creates.size(), 1u);
  EXPECT_EQ(plan.creates[0]["spec"]["devices"][0]["name"], "gcu-0");
  ASSERT_EQ(plan.updates.size(), 1u);
  EXPECT_EQ(plan.updates[0]["metadata"]["name"], "n1-gcu.enflame.com-1");
}

TEST(SlicePlanTest, ExtraAndForeignSlicesAreDeleted) {
  std::vector<json> stored = Stored(Desired(2), 5);
  json duplicate = stored[0];
  duplicate["metadata"]["name"] = "n1-gcu.enflame.com-dup";
  json foreign = stored[0];
  foreign["metadata"]["name"] = "other-pool";
  foreign["spec"]["pool"]["name"] = "elsewhere";
  foreign["spec"]["pool"]["generation"] = 99;  // Not our pool: ignored.
  json unknown = stored[0];
  unknown["metadata"]["name"] = "n1-gcu.enflame.com-unknown";
  unknown["spec"]["devices"][0]["name"] = "gcu-7";
  stored.push_back(duplicate);
  stored.push_back(foreign);
  stored.push_back(unknown);
  const SlicePlan plan = PlanSlices(Desired(2), stored, "n1");
  EXPECT_EQ(plan.generation, 5);  // The kept slice is in step.
  EXPECT_TRUE(plan.creates.empty());
  EXPECT_TRUE(plan.updates.empty());
  EXPECT_EQ(Names(plan.deletes),
            (std::vector<std::string>{"n1-gcu.enflame.com-dup", "other-pool",
                                      "n1-gcu.enflame.com-unknown"}));
}

TEST(SlicePlanTest, OlderGenerationIsObsolete) {
  std::vector<json> stored = Stored(Desired(200), 5);
  json old = Stored(Desired(200), 4)[0];
  old["metadata"]["name"] = "n1-gcu.enflame.com-old";
  stored.push_back(old);
  const SlicePlan plan = PlanSlices(Desired(200), stored, "n1");
  EXPECT_EQ(plan.generation, 5);
  EXPECT_EQ(Names(plan.deletes),
            (std::vector<std::string>{"n1-gcu.enflame.com-old"}));
  EXPECT_TRUE(plan.updates.empty());
}

TEST(SlicePlanTest, ShrinkingPoolDeletesAndRecounts) {
  // 200 cards -> 100: one slice too many, the other's count changes.
  const SlicePlan plan =
      PlanSlices(Desired(100), Stored(Desired(200), 5), "n1");
  EXPECT_EQ(plan.generation, 6);
  EXPECT_EQ(Names(plan.deletes),
            (std::vector<std::string>{"n1-gcu.enflame.com-1"}));
  ASSERT_EQ(plan.updates.size(), 1u);
  EXPECT_EQ(plan.updates[0]["spec"]["pool"]["resourceSliceCount"], 1);
  EXPECT_EQ(plan.updates[0]["spec"]["devices"].size(), 100u);
}

TEST(SlicePlanTest, EmptyPoolMatchesEmptySlice) {
  const SlicePlan first = PlanSlices(Desired(0), {}, "n1");
  ASSERT_EQ(first.creates.size(), 1u);
  const SlicePlan again = PlanSlices(Desired(0), Stored(Desired(0), 1), "n1");
  EXPECT_TRUE(again.empty());
}

TEST(SlicePlanTest, PlannedObjectsMatchDesired) {
  std::vector<json> stored = Stored(Desired(3), 2);
  stored[0]["spec"]["devices"][2]["capacity"]["memory"]["value"] = "8Gi";
  const SlicePlan plan = PlanSlices(Desired(3), stored, "n1");
  ASSERT_EQ(plan.updates.size(), 1u);
  json want = Desired(3)[0];
  want["spec"]["pool"]["generation"] = 3;
  EXPECT_TRUE(SameSliceContent(want, plan.updates[0]));
}

}  // namespace
}  // namespace gcushare::dra
