// The exact JSON of /inspect and /inspect/<node>: the vendor manual's keys,
// in its order, wrapped in "nodes", devices an array with "id".
#include <gtest/gtest.h>

#include "base/testing/fake_clock.h"
#include "extender/card_cache.h"
#include "extender/extender_service.h"
#include "extender/testing/objects.h"
#include "kube/testing/fake_kube_client.h"
#include "metrics/registry.h"

namespace gcushare::extender {

using placement::Policy;

namespace {

using nlohmann::ordered_json;
using testing::Assigned;
using testing::MemoryPod;
using testing::SharingNode;

std::vector<std::string> Keys(const ordered_json& object) {
  std::vector<std::string> keys;
  for (const auto& [key, value] : object.items()) keys.push_back(key);
  return keys;
}

class InspectTest : public ::testing::Test {
 protected:
  InspectTest()
      : service_(&cache_, &client_, &clock_, Policy::kBinpack, &registry_) {}

  CardCache cache_;
  kube::FakeKubeClient client_;
  base::FakeClock clock_;
  metrics::Registry registry_;
  ExtenderService service_;
};

TEST_F(InspectTest, OneNodeIsTheVendorShapeWrappedInNodes) {
  cache_.UpsertNode(SharingNode("n1", 2, 16));
  ASSERT_TRUE(
      cache_.UpsertPod(Assigned(MemoryPod("p4", 4, "u4"), "n1", {1}, 16)).ok());

  std::optional<ordered_json> view = service_.InspectNode("n1");
  ASSERT_TRUE(view.has_value());
  const ordered_json expected = ordered_json::parse(R"({"nodes":[
    {"name":"n1","totalGCU":32,"usedGCU":4,"availableGCU":28,
     "devices":[
       {"id":0,"totalGCU":16,"usedGCU":0,"availableGCU":16,"pods":[],
        "healthy":true},
       {"id":1,"totalGCU":16,"usedGCU":4,"availableGCU":12,
        "pods":[{"name":"p4","namespace":"default","uid":"u4",
                 "createTime":"2026-11-23T10:00:00Z","usedGCU":4,
                 "assumed":false}],
        "healthy":true}],
     "memoryUnit":"1"}]})");
  // Compared as text: an ordered_json compares key order too, but the text
  // shows the difference.
  EXPECT_EQ(view->dump(), expected.dump());
}

TEST_F(InspectTest, VendorKeysComeFirstInTheManualsOrder) {
  cache_.UpsertNode(SharingNode("n1", 1, 16));
  ASSERT_TRUE(
      cache_.UpsertPod(Assigned(MemoryPod("p4", 4), "n1", {0}, 16)).ok());
  ordered_json node = (*service_.InspectNode("n1"))["nodes"][0];
  const std::vector<std::string> node_keys = Keys(node);
  ASSERT_GE(node_keys.size(), 5u);
  EXPECT_EQ(std::vector<std::string>(node_keys.begin(), node_keys.begin() + 5),
            (std::vector<std::string>{"name", "totalGCU", "usedGCU",
                                      "availableGCU", "devices"}));
  const std::vector<std::string> device_keys = Keys(node["devices"][0]);
  ASSERT_GE(device_keys.size(), 5u);
  EXPECT_EQ(
      std::vector<std::string>(device_keys.begin(), device_keys.begin() + 5),
      (std::vector<std::string>{"id", "totalGCU", "usedGCU", "availableGCU",
                                "pods"}));
  const std::vector<std::string> pod_keys = Keys(node["devices"][0]["pods"][0]);
  ASSERT_GE(pod_keys.size(), 5u);
  EXPECT_EQ(std::vector<std::string>(pod_keys.begin(), pod_keys.begin() + 5),
            (std::vector<std::string>{"name", "namespace", "uid", "createTime",
                                      "usedGCU"}));
}

TEST_F(InspectTest, AllNodesSortedByNameAndUnknownNodeIsNullopt) {
  cache_.UpsertNode(SharingNode("n2", 1, 8));
  cache_.UpsertNode(SharingNode("n1", 1, 16));
  ordered_json all = service_.InspectAll();
  ASSERT_EQ(Keys(all), std::vector<std::string>{"nodes"});
  ASSERT_EQ(all["nodes"].size(), 2u);
  EXPECT_EQ(all["nodes"][0]["name"], "n1");
  EXPECT_EQ(all["nodes"][1]["name"], "n2");
  EXPECT_EQ(all["nodes"][1]["devices"][0]["totalGCU"], 8);
  EXPECT_FALSE(service_.InspectNode("n3").has_value());
}

TEST_F(InspectTest, NoNodesIsAnEmptyList) {
  EXPECT_EQ(service_.InspectAll().dump(), R"({"nodes":[]})");
}

}  // namespace
}  // namespace gcushare::extender
