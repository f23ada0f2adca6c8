#include "tests/peers/dra_scheduler/device_pools.h"

#include <gtest/gtest.h>

namespace gcushare::dra_scheduler {
namespace {

using nlohmann::json;

json Slice(const std::string& name, const std::string& pool, int generation,
           int count, const std::vector<std::string>& devices) {
  json list = json::array();
  for (const std::string& device : devices) list.push_back({{"name", device}});
  return {{"metadata", {{"name", name}}},
          {"spec",
           {{"driver", "gcu.enflame.com"},
            {"nodeName", "node-a"},
            {"pool",
             {{"name", pool},
              {"generation", generation},
              {"resourceSliceCount", count}}},
            {"devices", list}}}};
}

const json kNode = {{"metadata", {{"name", "node-a"}}}};

TEST(DevicePoolsTest, HighestGenerationAndCompleteness) {
  auto pools = PoolsForNode(
      {Slice("a1", "a", 1, 1, {"gcu-0"}), Slice("a2", "a", 2, 2, {"gcu-1"}),
       Slice("a3", "a", 2, 2, {"gcu-2"}), Slice("b1", "b", 3, 2, {"gcu-0"})},
      kNode);
  ASSERT_TRUE(pools.ok()) << pools.status().message();
  ASSERT_EQ(pools->size(), 2u);
  EXPECT_EQ((*pools)[0].name, "a");
  EXPECT_FALSE((*pools)[0].incomplete);
  ASSERT_EQ((*pools)[0].devices.size(), 2u);
  EXPECT_EQ((*pools)[0].devices[0].name, "gcu-1");
  EXPECT_EQ((*pools)[0].devices[0].Key(), "gcu.enflame.com/a/gcu-1");
  EXPECT_TRUE((*pools)[1].incomplete);
}

TEST(DevicePoolsTest, DuplicateNamesMakeThePoolInvalid) {
  auto pools = PoolsForNode(
      {Slice("a1", "a", 1, 2, {"gcu-0"}), Slice("a2", "a", 1, 2, {"gcu-0"})},
      kNode);
  ASSERT_TRUE(pools.ok());
  EXPECT_EQ((*pools)[0].invalid_reason, "duplicate device name gcu-0");
}

TEST(DevicePoolsTest, BrokenSlicesAreErrors) {
  json no_driver = Slice("x", "a", 1, 1, {"gcu-0"});
  no_driver["spec"].erase("driver");
  EXPECT_FALSE(PoolsForNode({no_driver}, kNode).ok());
  json bad_capacity = Slice("y", "a", 1, 1, {"gcu-0"});
  bad_capacity["spec"]["devices"][0]["capacity"] = {
      {"memory", {{"value", "16GB"}}}};
  auto pools = PoolsForNode({bad_capacity}, kNode);
  ASSERT_FALSE(pools.ok());
  EXPECT_NE(pools.status().message().find("resourceslice y"),
            std::string::npos);
}

TEST(DevicePoolsTest, NodeSelectors) {
  const json node = {
      {"metadata", {{"name", "n1"}, {"labels", {{"gpu", "yes"}}}}}};
  auto selector = [](const std::string& text) { return json::parse(text); };
  EXPECT_TRUE(NodeSelectorMatches(selector(R"({"nodeSelectorTerms": [
      {"matchExpressions": [{"key": "gpu", "operator": "Exists"}]}]})"),
                                  node));
  EXPECT_FALSE(NodeSelectorMatches(selector(R"({"nodeSelectorTerms": [
      {"matchExpressions": [{"key": "gpu", "operator": "NotIn", "values": ["yes"]}]}]})"),
                                   node));
  EXPECT_TRUE(NodeSelectorMatches(selector(R"({"nodeSelectorTerms": [
      {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["x"]}]},
      {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n1"]}]}]})"),
                                  node));
  EXPECT_FALSE(
      NodeSelectorMatches(selector(R"({"nodeSelectorTerms": [{}]})"), node));
}

}  // namespace
}  // namespace gcushare::dra_scheduler
