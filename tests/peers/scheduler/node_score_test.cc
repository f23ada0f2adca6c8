#include "tests/peers/scheduler/node_score.h"

#include <gtest/gtest.h>

namespace gcushare::scheduler {
namespace {

nlohmann::json Node(const std::string& cpu, const std::string& memory) {
  return {{"status", {{"allocatable", {{"cpu", cpu}, {"memory", memory}}}}}};
}

nlohmann::json Pod(const std::string& cpu, const std::string& memory) {
  return {{"spec",
           {{"containers",
             {{{"name", "c"},
               {"resources",
                {{"requests", {{"cpu", cpu}, {"memory", memory}}}}}}}}}}};
}

TEST(NodeScoreTest, ParsesQuantities) {
  EXPECT_EQ(ParseQuantity("500m", true), 500);
  EXPECT_EQ(ParseQuantity("2", true), 2000);
  EXPECT_EQ(ParseQuantity("1.5", true), 1500);
  EXPECT_EQ(ParseQuantity("16Gi", false), 16LL << 30);
  EXPECT_EQ(ParseQuantity("1G", false), 1000000000);
  EXPECT_EQ(ParseQuantity("lots", false), 0);
}

TEST(NodeScoreTest, ContainersWithoutRequestsCountDefaults) {
  HostResources r =
      NonZeroRequests({{"spec", {{"containers", {{{"name", "c"}}}}}}});
  EXPECT_EQ(r.cpu_milli, 100);
  EXPECT_EQ(r.memory, 200LL << 20);
}

TEST(NodeScoreTest, LeastAllocatedPrefersTheEmptierNode) {
  // kube-scheduler's own scores spread pods: the node already running a
  // pod scores lower than an untouched one (this is why the extender's
  // binpack filter keeps only its best-ranked nodes).
  const nlohmann::json node = Node("8", "32Gi");
  HostResources pod = NonZeroRequests(Pod("2", "8Gi"));
  const int64_t used = DefaultPluginScore(pod, pod, node);
  const int64_t fresh = DefaultPluginScore(pod, {}, node);
  EXPECT_EQ(fresh, 75 + 100);  // (6/8 + 24/32) / 2; balanced.
  EXPECT_EQ(used, 50 + 100);
  EXPECT_GT(fresh, used);
}

TEST(NodeScoreTest, UnbalancedUseScoresLower) {
  const nlohmann::json node = Node("8", "32Gi");
  // cpu 4/8, memory 4/32: std 0.1875 -> 81.
  EXPECT_EQ(DefaultPluginScore(NonZeroRequests(Pod("4", "4Gi")), {}, node),
            (50 + 87) / 2 + 81);
}

}  // namespace
}  // namespace gcushare::scheduler
