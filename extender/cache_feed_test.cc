// NodeFeed and PodFeed with a NodeResources: nodes' allocatable CPU/memory
// and every pod's requests, decoded through NodeFields()/PodFields() as the
// informers decode them, counted on the node, released when the pod is
// deleted, finishes, or is missing from a relist.
#include "extender/cache_feed.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "extender/card_cache.h"
#include "extender/node_resources.h"
#include "extender/pod_usage.h"
#include "extender/testing/objects.h"
#include "json/pruned_parse.h"
#include "placement/request_mix.h"

namespace gcushare::extender {

using placement::CachedNode;
using placement::kNoHostIndex;
using placement::RequestHistory;
using placement::RequestMix;

namespace {

using nlohmann::json;

// A node as the API server sends it, decoded as the node informer does.
json DecodedNode(const std::string& name, const std::string& cpu,
                 const std::string& memory) {
  json node = {
      {"metadata",
       {{"name", name},
        {"uid", "node-uid-" + name},
        {"resourceVersion", "1"},
        {"labels", {{"enflame.com/gcushare", "true"}}}}},
      {"status",
       {{"allocatable", {{"cpu", cpu}, {"memory", memory}, {"pods", "110"}}},
        {"capacity", {{"cpu", "999"}, {"memory", "999Gi"}}},
        {"conditions", json::array({{{"type", "Ready"}}})}}}};
  auto decoded = gcushare::json::ParsePruned(node.dump(), NodeFields(), "node");
  EXPECT_TRUE(decoded.ok()) << decoded.status().ToString();
  return *decoded;
}

// A pod without GCU requests, decoded as the pod informer does.
json DecodedPlainPod(const std::string& uid, const std::string& node,
                     const std::string& cpu, const std::string& phase) {
  json pod = {
      {"metadata",
       {{"name", "plain-" + uid.substr(0, 4)},
        {"namespace", "default"},
        {"uid", uid},
        {"resourceVersion", "5"},
        {"labels", {{"app", "web"}}}}},
      {"spec",
       {{"nodeName", node},
        {"containers",
         json::array(
             {{{"name", "app"},
               {"image", "nginx"},
               {"resources",
                {{"requests", {{"cpu", cpu}, {"memory", "1Gi"}}}}}}})}}},
      {"status", {{"phase", phase}, {"podIP", "10.0.0.1"}}}};
  auto decoded = gcushare::json::ParsePruned(pod.dump(), PodFields(), "pod");
  EXPECT_TRUE(decoded.ok()) << decoded.status().ToString();
  return *decoded;
}

constexpr char kUidA[] = "6f1d2c3b-0000-4000-8000-00000000000a";
constexpr char kUidB[] = "6f1d2c3b-0000-4000-8000-00000000000b";

class CacheFeedTest : public ::testing::Test {
 protected:
  int64_t FreeCpu(const std::string& node) {
    auto free = resources_.Free(node);
    return free ? free->cpu_milli : -1;
  }

  CardCache cache_;
  NodeResources resources_;
  NodeFeed nodes_{&cache_, &resources_};
  PodFeed pods_{&cache_, nullptr, &resources_};
};

TEST_F(CacheFeedTest, NodeAllocatableIsDecodedAndKept) {
  nodes_.OnAdd(DecodedNode("n1", "16", "64Gi"));
  auto free = resources_.Free("n1");
  ASSERT_TRUE(free.has_value());
  EXPECT_EQ(free->cpu_milli, 16000);
  EXPECT_EQ(free->memory, int64_t{64} << 30);
  nodes_.OnUpdate(DecodedNode("n1", "16", "64Gi"),
                  DecodedNode("n1", "8", "64Gi"));
  EXPECT_EQ(FreeCpu("n1"), 8000);
  nodes_.OnDelete(DecodedNode("n1", "8", "64Gi"));
  EXPECT_FALSE(resources_.Free("n1").has_value());
}

// The cached node carries its NodeResources index, which reads its figures
// (a filter's candidates are not looked up by name twice).
TEST_F(CacheFeedTest, CachedNodeKeepsItsHostIndex) {
  nodes_.OnAdd(DecodedNode("n1", "16", "64Gi"));
  nodes_.OnAdd(DecodedNode("n2", "4", "8Gi"));
  nodes_.OnUpdate(DecodedNode("n2", "4", "8Gi"), DecodedNode("n2", "6", "8Gi"));
  std::vector<uint32_t> hosts;
  cache_.WithNodes({"n1", "n2", "absent"},
                   [&](const std::vector<const CachedNode*>& nodes) {
                     ASSERT_NE(nodes[0], nullptr);
                     ASSERT_NE(nodes[1], nullptr);
                     EXPECT_EQ(nodes[2], nullptr);
                     hosts = {nodes[0]->host_index, nodes[1]->host_index};
                   });
  ASSERT_EQ(hosts.size(), 2u);
  EXPECT_EQ(hosts[0], resources_.IndexOf("n1"));
  EXPECT_EQ(hosts[1], resources_.IndexOf("n2"));
  const auto free = resources_.FreeOf({"n1", "n2"}, hosts);
  EXPECT_EQ(free[0]->cpu_milli, 16000);
  EXPECT_EQ(free[1]->cpu_milli, 6000);
  // Without a NodeResources the feed gives none.
  CardCache alone;
  NodeFeed feed(&alone, nullptr);
  feed.OnAdd(DecodedNode("n1", "16", "64Gi"));
  alone.WithNodes({"n1"}, [](const std::vector<const CachedNode*>& nodes) {
    ASSERT_NE(nodes[0], nullptr);
    EXPECT_EQ(nodes[0]->host_index, kNoHostIndex);
  });
}

TEST_F(CacheFeedTest, PlainPodCountsOnItsNodeUntilDeleted) {
  nodes_.OnAdd(DecodedNode("n1", "16", "64Gi"));
  const json pod = DecodedPlainPod(kUidA, "n1", "6", "Running");
  ASSERT_FALSE(PodKeptForm(pod).has_value());  // The informer drops it.
  pods_.OnUnkept(pod);
  EXPECT_EQ(FreeCpu("n1"), 10000);
  EXPECT_EQ(resources_.Free("n1")->memory, int64_t{63} << 30);
  pods_.OnUnkeptDelete(pod);
  EXPECT_EQ(FreeCpu("n1"), 16000);
  EXPECT_EQ(resources_.pod_count(), 0u);
}

TEST_F(CacheFeedTest, FinishedAndUnboundPodsCountNothing) {
  nodes_.OnAdd(DecodedNode("n1", "16", "64Gi"));
  pods_.OnUnkept(DecodedPlainPod(kUidA, "", "6", "Pending"));
  EXPECT_EQ(FreeCpu("n1"), 16000);
  pods_.OnUnkept(DecodedPlainPod(kUidA, "n1", "6", "Running"));
  EXPECT_EQ(FreeCpu("n1"), 10000);
  pods_.OnUnkept(DecodedPlainPod(kUidA, "n1", "6", "Succeeded"));
  EXPECT_EQ(FreeCpu("n1"), 16000);
}

TEST_F(CacheFeedTest, RelistWithoutAPlainPodReleasesIt) {
  nodes_.OnAdd(DecodedNode("n1", "16", "64Gi"));
  pods_.OnRelistBegin();
  pods_.OnUnkept(DecodedPlainPod(kUidA, "n1", "6", "Running"));
  pods_.OnUnkept(DecodedPlainPod(kUidB, "n1", "2", "Running"));
  pods_.OnRelistEnd();
  EXPECT_EQ(FreeCpu("n1"), 8000);
  // A is deleted while the watch is down: the next relist shows only B.
  pods_.OnRelistBegin();
  pods_.OnUnkept(DecodedPlainPod(kUidB, "n1", "2", "Running"));
  EXPECT_EQ(FreeCpu("n1"), 8000);  // Nothing released before the end.
  pods_.OnRelistEnd();
  EXPECT_EQ(FreeCpu("n1"), 14000);
  EXPECT_EQ(resources_.pod_count(), 1u);
}

TEST_F(CacheFeedTest, StoredGcuPodIsNotSweptAndIsReleasedOnDelete) {
  nodes_.OnAdd(DecodedNode("n1", "16", "64Gi"));
  json gcu = DecodedPlainPod(kUidA, "n1", "4", "Running");
  gcu["spec"]["containers"][0]["resources"]["limits"] = {
      {"enflame.com/gcu-memory", "4"}};
  ASSERT_TRUE(PodKeptForm(gcu).has_value());
  pods_.OnAdd(gcu);
  EXPECT_EQ(FreeCpu("n1"), 12000);
  // A relist that finds it unchanged reports nothing for it.
  pods_.OnRelistBegin();
  pods_.OnRelistEnd();
  EXPECT_EQ(FreeCpu("n1"), 12000);
  pods_.OnDelete(gcu);
  EXPECT_EQ(FreeCpu("n1"), 16000);
}

// KeptForm() hands the request it computed to the next report of the same
// object, and only of that object.
TEST_F(CacheFeedTest, KeptFormRequestServesOnlyTheSameObject) {
  nodes_.OnAdd(DecodedNode("n1", "16", "64Gi"));
  json small = DecodedPlainPod(kUidA, "n1", "1", "Running");
  small["spec"]["containers"][0]["resources"]["limits"] = {
      {"enflame.com/gcu-memory", "4"}};
  json big = DecodedPlainPod(kUidB, "n1", "1", "Running");
  big["spec"]["containers"][0]["resources"]["limits"] = {
      {"enflame.com/gcu-memory", "12"}};
  EXPECT_EQ(pods_.KeptForm(small), PodKeptForm(small));
  pods_.OnAdd(small);
  ASSERT_TRUE(cache_.Pod(kUidA).has_value());
  EXPECT_EQ(cache_.Pod(kUidA)->units, 4u);
  // The informer reported another object than the one KeptForm() saw.
  ASSERT_TRUE(pods_.KeptForm(small).has_value());
  pods_.OnAdd(big);
  ASSERT_TRUE(cache_.Pod(kUidB).has_value());
  EXPECT_EQ(cache_.Pod(kUidB)->units, 12u);
  // A plain pod's request is not kept for later reports.
  const json plain = DecodedPlainPod("6f1d2c3b-0000-4000-8000-00000000000c",
                                     "n1", "1", "Running");
  EXPECT_FALSE(pods_.KeptForm(plain).has_value());
  pods_.OnUnkept(plain);
  pods_.OnAdd(small);
  EXPECT_EQ(cache_.Pod(kUidA)->units, 4u);
}

// The request history (the binpack policy's mix) gets each GCU pod once,
// when the watch first shows it holding card memory: not while it is
// pending, not again for later events of it, and once for a pod our bind
// reserved first (Assume) and the watch then showed bound.
TEST(PodFeedHistoryTest, EachPodIsRecordedOnceWhenTheWatchShowsItHolding) {
  CardCache cache;
  RequestHistory history;
  PodFeed feed(&cache, nullptr, nullptr, &history);
  cache.UpsertNode(testing::SharingNode("n1", 2, 16));
  const json pending = testing::MemoryPod("a", 4, "uid-a");
  feed.OnAdd(pending);
  EXPECT_TRUE(history.Mix()->empty());

  const json bound = testing::Assigned(pending, "n1", {0}, 16);
  feed.OnUpdate(pending, bound);
  const std::shared_ptr<const RequestMix> one = history.Mix();
  ASSERT_FALSE(one->empty());
  EXPECT_EQ(one->SharedFragment(3), 3);  // 3 free units hold no 4-unit pod.
  json later = bound;
  later["metadata"]["resourceVersion"] = "99";
  feed.OnUpdate(bound, later);
  EXPECT_EQ(history.Mix(), one);  // Not recorded again: the same mix.

  // Reserved by a bind first, then seen bound: recorded once.
  PodUsage usage = PodIdentity(testing::MemoryPod("b", 8, "uid-b"));
  usage.node = "n1";
  usage.cards = {1};
  usage.units = 8;
  cache.Assume(usage);
  EXPECT_EQ(history.Mix(), one);
  const json b =
      testing::Assigned(testing::MemoryPod("b", 8, "uid-b"), "n1", {1}, 16);
  feed.OnAdd(b);
  const std::shared_ptr<const RequestMix> two = history.Mix();
  EXPECT_NE(two, one);
  EXPECT_EQ(two->SharedFragment(3), 3);
  EXPECT_EQ(two->SharedFragment(5), 2.5);  // Half the pods (4) fit in 5.
  feed.OnUpdate(b, b);
  EXPECT_EQ(history.Mix(), two);
}

}  // namespace
}  // namespace gcushare::extender
