#include "extender/card_cache.h"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "extender/testing/objects.h"

namespace gcushare::extender {

using placement::CachedNode;
using placement::CardUsage;
using placement::ReadNodeView;
using placement::Summarize;

namespace {

using testing::Assigned;
using testing::MemoryPod;
using testing::Pod;
using testing::SharingNode;

std::vector<uint64_t> Used(const CardCache& cache, const std::string& name) {
  std::vector<uint64_t> used;
  cache.Visit({name}, [&](const std::string&, const CachedNode* node) {
    if (node == nullptr) return;
    for (const CardUsage& card : node->cards) used.push_back(card.used_units);
  });
  return used;
}

TEST(CardCacheTest, CountsAssignedPodsWhicheverArrivesFirst) {
  CardCache cache;
  // The pod informer may run ahead of the node informer.
  ASSERT_TRUE(cache.UpsertPod(Assigned(MemoryPod("a", 4), "n1", {1}, 16)).ok());
  cache.UpsertNode(SharingNode("n1", 2, 16));
  ASSERT_TRUE(cache.UpsertPod(Assigned(MemoryPod("b", 8), "n1", {1}, 16)).ok());
  EXPECT_EQ(Used(cache, "n1"), (std::vector<uint64_t>{0, 12}));
  EXPECT_EQ(cache.pod_count(), 2u);
}

TEST(CardCacheTest, FinishedOrDeletedPodsFreeTheirMemory) {
  CardCache cache;
  cache.UpsertNode(SharingNode("n1", 1, 16));
  auto a = Assigned(MemoryPod("a", 4), "n1", {0}, 16);
  auto b = Assigned(MemoryPod("b", 8), "n1", {0}, 16);
  ASSERT_TRUE(cache.UpsertPod(a).ok());
  ASSERT_TRUE(cache.UpsertPod(b).ok());
  a["status"]["phase"] = "Succeeded";
  ASSERT_TRUE(cache.UpsertPod(a).ok());
  EXPECT_EQ(Used(cache, "n1"), (std::vector<uint64_t>{8}));
  cache.RemovePod(b);
  EXPECT_EQ(Used(cache, "n1"), (std::vector<uint64_t>{0}));
  EXPECT_EQ(cache.pod_count(), 0u);
}

TEST(CardCacheTest, AssumedPodSurvivesLaggingWatchAndForget) {
  CardCache cache;
  cache.UpsertNode(SharingNode("n1", 1, 16));
  auto pending = MemoryPod("a", 4);
  PodUsage usage = PodIdentity(pending);
  usage.node = "n1";
  usage.cards = {0};
  usage.units = 4;
  const uint64_t ticket = cache.Assume(usage);
  // The watch still shows the pod as it was before our Binding.
  ASSERT_TRUE(cache.UpsertPod(pending).ok());
  EXPECT_EQ(Used(cache, "n1"), (std::vector<uint64_t>{4}));
  ASSERT_TRUE(cache.Pod(usage.uid)->assumed);
  // Confirmed by the watch: no longer only assumed; Forget keeps it.
  ASSERT_TRUE(cache.UpsertPod(Assigned(pending, "n1", {0}, 16)).ok());
  EXPECT_FALSE(cache.Pod(usage.uid)->assumed);
  cache.Forget(usage.uid, ticket);
  EXPECT_EQ(Used(cache, "n1"), (std::vector<uint64_t>{4}));

  // A second reservation that is forgotten frees its memory.
  PodUsage other = PodIdentity(MemoryPod("b", 2));
  other.node = "n1";
  other.cards = {0};
  other.units = 2;
  const uint64_t other_ticket = cache.Assume(other);
  EXPECT_EQ(Used(cache, "n1"), (std::vector<uint64_t>{6}));
  cache.Forget(other.uid, other_ticket);
  EXPECT_EQ(Used(cache, "n1"), (std::vector<uint64_t>{4}));
}

// A bind that failed forgets only the reservation it made: a newer one
// for the same pod (a later bind) stays.
TEST(CardCacheTest, ForgetDropsOnlyItsOwnReservation) {
  CardCache cache;
  cache.UpsertNode(SharingNode("n1", 1, 16));
  PodUsage usage = PodIdentity(MemoryPod("a", 4));
  usage.node = "n1";
  usage.cards = {0};
  usage.units = 4;
  const uint64_t first = cache.Assume(usage);
  const uint64_t second = cache.Assume(usage);
  ASSERT_NE(first, second);
  cache.Forget(usage.uid, first);
  EXPECT_EQ(Used(cache, "n1"), (std::vector<uint64_t>{4}));
  cache.Forget(usage.uid, second);
  EXPECT_EQ(Used(cache, "n1"), (std::vector<uint64_t>{0}));
}

TEST(CardCacheTest, WholeCardPodsMarkTheirCards) {
  CardCache cache;
  cache.UpsertNode(SharingNode("n1", 3, 16));
  auto pod = testing::Pod("default", "w", "", {{"main", 0, 2}});
  ASSERT_TRUE(cache.UpsertPod(Assigned(pod, "n1", {0, 2}, 16)).ok());
  std::vector<bool> whole;
  cache.Visit({"n1"}, [&](const std::string&, const CachedNode* node) {
    for (const CardUsage& card : node->cards) whole.push_back(card.whole);
  });
  EXPECT_EQ(whole, (std::vector<bool>{true, false, true}));
}

TEST(CardCacheTest, NodeLosingItsLabelLeavesAndUnhealthyCardsAreMarked) {
  CardCache cache;
  cache.UpsertNode(SharingNode("n1", 2, 16, "1", {1}));
  bool healthy1 = true;
  cache.Visit({"n1"}, [&](const std::string&, const CachedNode* node) {
    healthy1 = node->cards[1].healthy;
  });
  EXPECT_FALSE(healthy1);
  cache.UpsertNode(testing::PlainNode("n1"));
  EXPECT_EQ(cache.node_count(), 0u);
}

// A node view read beforehand (NodeFeed reads it to log) is cached as the
// node object would be: the same cards and pods, a label lost removes it.
TEST(CardCacheTest, UpsertsANodeViewAsItsObject) {
  CardCache from_object;
  CardCache from_view;
  for (CardCache* cache : {&from_object, &from_view}) {
    ASSERT_TRUE(
        cache->UpsertPod(Assigned(MemoryPod("a", 4), "n1", {1}, 16)).ok());
  }
  from_object.UpsertNode(SharingNode("n1", 2, 16, "1", {1}));
  from_view.UpsertNode(ReadNodeView(SharingNode("n1", 2, 16, "1", {1})));
  EXPECT_EQ(Used(from_view, "n1"), (std::vector<uint64_t>{0, 4}));
  EXPECT_EQ(Used(from_view, "n1"), Used(from_object, "n1"));
  from_view.Visit({"n1"}, [](const std::string&, const CachedNode* node) {
    ASSERT_NE(node, nullptr);
    EXPECT_FALSE(node->cards[1].healthy);
    EXPECT_EQ(node->pod_uids.size(), 1u);
  });
  from_view.UpsertNode(ReadNodeView(testing::PlainNode("n1")));
  EXPECT_EQ(from_view.node_count(), 0u);
}

TEST(CardCacheTest, CardsKeepTheirPublishedNumaNode) {
  CardCache cache;
  // SharingNode publishes cards 0-1 on NUMA node 0 and 2-3 on 1.
  cache.UpsertNode(SharingNode("n1", 4, 16));
  std::vector<std::optional<int>> numa;
  cache.Visit({"n1"}, [&](const std::string&, const CachedNode* node) {
    for (const CardUsage& card : node->cards) numa.push_back(card.numa);
  });
  EXPECT_EQ(numa, (std::vector<std::optional<int>>{0, 0, 1, 1}));
}

// A malformed card list is reported, and the pod stays counted on every
// card of its node: an edit cannot make memory look free.
TEST(CardCacheTest, MalformedAnnotationsAreReportedAndStillCounted) {
  CardCache cache;
  cache.UpsertNode(SharingNode("n1", 2, 16));
  auto pod = Assigned(MemoryPod("a", 4), "n1", {0}, 16);
  ASSERT_TRUE(cache.UpsertPod(pod).ok());
  EXPECT_EQ(Used(cache, "n1"), (std::vector<uint64_t>{4, 0}));
  pod["metadata"]["annotations"]["enflame.com/gcu-device-id"] = "zero";
  Status status = cache.UpsertPod(pod);
  EXPECT_FALSE(status.ok());
  EXPECT_NE(status.message().find("counted on n1"), std::string::npos)
      << status.message();
  EXPECT_EQ(Used(cache, "n1"), (std::vector<uint64_t>{4, 4}));
  pod["metadata"]["annotations"]["enflame.com/gcu-device-id"] = "1";
  pod["metadata"]["annotations"]["enflame.com/gcu-device-memory-request"] = "0";
  EXPECT_TRUE(cache.UpsertPod(pod).ok());
  EXPECT_EQ(Used(cache, "n1"), (std::vector<uint64_t>{0, 4}));
}

// A new pod is counted on its node without recounting the node; the
// counts must be what a recount from scratch (a node update) gives.
TEST(CardCacheTest, NewPodsCountAsARecountWould) {
  CardCache cache;
  cache.UpsertNode(SharingNode("n1", 4, 16));
  auto snapshot = [&cache] {
    std::vector<std::pair<uint64_t, bool>> cards;
    std::set<std::string> uids;
    cache.Visit({"n1"}, [&](const std::string&, const CachedNode* node) {
      for (const CardUsage& card : node->cards) {
        cards.emplace_back(card.used_units, card.whole);
      }
      uids = node->pod_uids;
    });
    return std::make_pair(cards, uids);
  };
  ASSERT_TRUE(cache.UpsertPod(Assigned(MemoryPod("a", 4), "n1", {1}, 16)).ok());
  ASSERT_TRUE(cache.UpsertPod(Assigned(MemoryPod("b", 3), "n1", {1}, 16)).ok());
  ASSERT_TRUE(cache.UpsertPod(Assigned(MemoryPod("c", 2), "n1", {3}, 16)).ok());
  auto whole = testing::Pod("default", "w", "w-uid", {{"main", 0, 1}});
  ASSERT_TRUE(cache.UpsertPod(Assigned(whole, "n1", {2}, 16)).ok());
  // Names a card the node does not publish: held nowhere.
  ASSERT_TRUE(cache.UpsertPod(Assigned(MemoryPod("d", 5), "n1", {7}, 16)).ok());
  // No card list: held on every card.
  auto unknown = Assigned(MemoryPod("e", 1), "n1", {0}, 16);
  unknown["metadata"]["annotations"].erase("enflame.com/gcu-device-id");
  EXPECT_FALSE(cache.UpsertPod(unknown).ok());
  auto incremental = snapshot();
  EXPECT_EQ(incremental.first,
            (std::vector<std::pair<uint64_t, bool>>{
                {1, false}, {8, false}, {1, true}, {3, false}}));
  EXPECT_EQ(incremental.second.size(), 6u);
  cache.UpsertNode(SharingNode("n1", 4, 16));  // Recounts from scratch.
  EXPECT_EQ(snapshot(), incremental);
}

// The cache's summary is Summarize() of its cards after every kind of
// change: pods counted, recounted, assumed, forgotten, removed; nodes
// replaced.
TEST(CardCacheTest, KeepsTheSummaryOfItsCards) {
  CardCache cache;
  auto expect_current = [&](const std::string& name) {
    cache.Visit({name}, [](const std::string&, const CachedNode* node) {
      ASSERT_NE(node, nullptr);
      EXPECT_EQ(node->summary, Summarize(node->cards));
    });
  };
  cache.UpsertNode(SharingNode("n1", 4, 16, "1", {3}));
  expect_current("n1");
  std::mt19937 rng(5);
  std::vector<nlohmann::json> pods;
  for (int i = 0; i < 40; ++i) {
    const uint32_t card = rng() % 4;
    nlohmann::json pod =
        rng() % 5 == 0
            ? Assigned(Pod("ns", "w" + std::to_string(i),
                           "uid-w" + std::to_string(i), {{"main", 0, 1}}),
                       "n1", {card}, 16)
            : Assigned(MemoryPod("p" + std::to_string(i), 1 + rng() % 6,
                                 "uid-p" + std::to_string(i)),
                       "n1", {card}, 16);
    ASSERT_TRUE(cache.UpsertPod(pod).ok());
    pods.push_back(pod);
    expect_current("n1");
    if (rng() % 3 == 0) {
      cache.RemovePod(pods[rng() % pods.size()]);
      expect_current("n1");
    }
  }
  PodUsage assumed;
  assumed.uid = "uid-assumed";
  assumed.namespace_name = "ns";
  assumed.name = "assumed";
  assumed.node = "n1";
  assumed.cards = {1};
  assumed.units = 2;
  const uint64_t ticket = cache.Assume(assumed);
  expect_current("n1");
  cache.Forget("uid-assumed", ticket);
  expect_current("n1");
  cache.UpsertNode(SharingNode("n1", 2, 32));  // Replaced: fewer cards.
  expect_current("n1");
}

}  // namespace
}  // namespace gcushare::extender
