#include "extender/pod_usage.h"

#include <gtest/gtest.h>

namespace gcushare::extender {
namespace {

nlohmann::json Container(const std::string& name, const char* resource,
                         const char* value) {
  return {{"name", name}, {"resources", {{"limits", {{resource, value}}}}}};
}

nlohmann::json PodWith(nlohmann::json containers,
                       nlohmann::json init = nlohmann::json::array()) {
  return {{"metadata",
           {{"name", "p"},
            {"namespace", "ns"},
            {"uid", "u1"},
            {"creationTimestamp", "2026-11-23T10:00:00Z"}}},
          {"spec", {{"containers", containers}, {"initContainers", init}}},
          {"status", {{"phase", "Pending"}}}};
}

// Bound (by someone else, or its annotations removed) without our card
// annotation: still holds its request, on every card of the node.
TEST(PodUsageTest, BoundWithoutAnnotationsIsCountedOnEveryCard) {
  auto pod = PodWith({Container("main", "enflame.com/gcu-memory", "4")});
  auto usage = PodUsageFromPod(pod);
  ASSERT_TRUE(usage.ok());
  EXPECT_FALSE(usage->has_value());  // Not on a node yet.
  pod["spec"]["nodeName"] = "n1";
  usage = PodUsageFromPod(pod);
  ASSERT_TRUE(usage.ok());
  ASSERT_TRUE(usage->has_value());
  EXPECT_TRUE((*usage)->cards.empty());
  EXPECT_EQ((*usage)->units, 4u);
  EXPECT_NE((*usage)->problem.find("without the enflame.com/gcu-device-id"),
            std::string::npos)
      << (*usage)->problem;
}

// A pod that asks for nothing holds nothing, whatever its annotations say.
TEST(PodUsageTest, AnnotationsWithoutARequestHoldNothing) {
  auto pod = PodWith({{{"name", "main"}}});
  pod["spec"]["nodeName"] = "n1";
  pod["metadata"]["annotations"] = {{"enflame.com/gcu-device-id", "0"}};
  auto usage = PodUsageFromPod(pod);
  ASSERT_TRUE(usage.ok());
  EXPECT_FALSE(usage->has_value());
}

// Units come from the spec: editing the request annotation changes nothing.
TEST(PodUsageTest, EditedRequestAnnotationChangesNothing) {
  auto pod = PodWith({Container("main", "enflame.com/gcu-memory", "4")});
  pod["spec"]["nodeName"] = "n1";
  pod["metadata"]["annotations"] = {
      {"enflame.com/gcu-device-id", "2"},
      {"enflame.com/gcu-device-memory-request", "0"}};
  auto usage = PodUsageFromPod(pod);
  ASSERT_TRUE(usage.ok());
  ASSERT_TRUE(usage->has_value());
  EXPECT_EQ((*usage)->units, 4u);
  EXPECT_EQ((*usage)->cards, std::vector<uint32_t>{2});
  EXPECT_EQ((*usage)->problem, "");
  // A malformed one elsewhere keeps the card it names.
  pod["metadata"]["annotations"]["enflame.com/gcu-device-memory-request"] =
      "lots";
  usage = PodUsageFromPod(pod);
  ASSERT_TRUE(usage.ok());
  ASSERT_TRUE(usage->has_value());
  EXPECT_EQ((*usage)->cards, std::vector<uint32_t>{2});
  EXPECT_EQ((*usage)->units, 4u);
  EXPECT_NE((*usage)->problem.find("gcu-device-memory-request"),
            std::string::npos);
}

TEST(PodUsageTest, AssignedSharedPod) {
  auto pod = PodWith({Container("main", "enflame.com/gcu-memory", "4")});
  pod["spec"]["nodeName"] = "n1";
  pod["metadata"]["annotations"] = {
      {"enflame.com/gcu-device-id", "3"},
      {"enflame.com/gcu-device-memory", "16"},
      {"enflame.com/gcu-device-memory-request", "4"},
      {"enflame.com/gcu-device-assign-time", "5"},
      {"enflame.com/gcu-device-assigned", "true"},
      {"enflame.com/gcu-container-devices", R"({"main":[3]})"}};
  auto usage = PodUsageFromPod(pod);
  ASSERT_TRUE(usage.ok()) << usage.status().message();
  ASSERT_TRUE(usage->has_value());
  EXPECT_EQ((*usage)->node, "n1");
  EXPECT_EQ((*usage)->cards, std::vector<uint32_t>{3});
  EXPECT_EQ((*usage)->units, 4u);
  EXPECT_FALSE((*usage)->whole);
  EXPECT_EQ((*usage)->Key(), "ns/p");

  pod["status"]["phase"] = "Succeeded";
  usage = PodUsageFromPod(pod);
  ASSERT_TRUE(usage.ok());
  EXPECT_FALSE(usage->has_value());
}

TEST(PodUsageTest, MalformedCardListIsCountedOnEveryCard) {
  auto pod = PodWith({Container("main", "enflame.com/gcu-memory", "4")});
  pod["spec"]["nodeName"] = "n1";
  pod["metadata"]["annotations"] = {{"enflame.com/gcu-device-id", "x"}};
  auto usage = PodUsageFromPod(pod);
  ASSERT_TRUE(usage.ok());
  ASSERT_TRUE(usage->has_value());
  EXPECT_TRUE((*usage)->cards.empty());
  EXPECT_EQ((*usage)->units, 4u);
  EXPECT_NE((*usage)->problem.find("enflame.com/gcu-device-id"),
            std::string::npos)
      << (*usage)->problem;
}

TEST(BuildAssignmentTest, SharedPodListsEveryRequestingContainer) {
  auto pod = PodWith({Container("a", "enflame.com/gcu-memory", "4"),
                      Container("b", "enflame.com/gcu-memory", "2"),
                      {{"name", "sidecar-without-gcu"}}});
  auto request = contract::ComputePodRequest(pod);
  ASSERT_TRUE(request.ok());
  auto a = BuildAssignment(*request, {5}, 16, 42);
  EXPECT_EQ(a.cards, std::vector<uint32_t>{5});
  EXPECT_EQ(a.request_units, 6u);
  EXPECT_EQ(a.card_memory_units, 16u);
  EXPECT_EQ(a.assign_time_ns, 42);
  EXPECT_FALSE(a.assigned);
  std::map<std::string, std::vector<uint32_t>> expected = {{"a", {5}},
                                                           {"b", {5}}};
  EXPECT_EQ(a.container_cards, expected);
}

TEST(BuildAssignmentTest, WholeCardsAreSlicedAmongContainers) {
  auto pod = PodWith({Container("a", "enflame.com/gcu-count", "1"),
                      Container("b", "enflame.com/gcu-count", "2")},
                     {Container("init", "enflame.com/gcu-count", "2")});
  auto request = contract::ComputePodRequest(pod);
  ASSERT_TRUE(request.ok());
  ASSERT_EQ(request->cards, 3u);
  auto a = BuildAssignment(*request, {1, 4, 6}, 16, 1);
  EXPECT_EQ(a.request_units, 48u);
  std::map<std::string, std::vector<uint32_t>> expected = {
      {"a", {1}}, {"b", {4, 6}}, {"init", {1, 4}}};
  EXPECT_EQ(a.container_cards, expected);
}

}  // namespace
}  // namespace gcushare::extender
