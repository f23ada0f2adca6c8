#include "extender/node_summary.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "extender/card_allocator.h"
#include "extender/card_cache.h"
#include "extender/testing/objects.h"

namespace gcushare::extender {
namespace {

using testing::Assigned;
using testing::MemoryPod;
using testing::Pod;
using testing::SharingNode;

CardUsage Card(uint32_t index, uint64_t total, uint64_t used,
               bool healthy = true, bool whole = false) {
  CardUsage card;
  card.index = index;
  card.total_units = total;
  card.used_units = used;
  card.healthy = healthy;
  card.whole = whole;
  return card;
}

TEST(NodeSummaryTest, CountsOnlyUsableCardsForFreeMemory) {
  const NodeSummary summary = Summarize({
      Card(0, 16, 3),              // 13 free.
      Card(1, 16, 0),              // Untouched.
      Card(2, 32, 0, false),       // Unhealthy: only its size counts.
      Card(3, 16, 0, true, true),  // A whole-card pod holds it.
      Card(4, 16, 20),             // Over-committed: 0 free.
  });
  EXPECT_EQ(summary.cards, 5u);
  EXPECT_EQ(summary.untouched, 1u);
  EXPECT_EQ(summary.largest_total, 32u);
  EXPECT_EQ(summary.largest_free, 16u);
  EXPECT_EQ(summary.free_total, 29u);
}

TEST(NodeSummaryTest, SharedFitsNowhereOnlyWhenPlaceSaysInsufficient) {
  const std::vector<CardUsage> cards = {Card(0, 16, 10), Card(1, 16, 12),
                                        Card(2, 32, 0, false)};
  const NodeSummary summary = Summarize(cards);
  for (uint64_t units = 1; units <= 40; ++units) {
    SCOPED_TRACE(units);
    CardRequest request;
    request.memory_units = units;
    auto placed = Place(cards, request, Policy::kBinpack);
    if (SharedFitsNowhere(summary, units)) {
      ASSERT_FALSE(placed.ok());
      EXPECT_EQ(placed.status().message(), kInsufficientMemoryReason);
    }
    // 7..32 fit nowhere for lack of free memory; above 32 Judge() names
    // the largest card instead, so the summary leaves it to Judge().
    EXPECT_EQ(SharedFitsNowhere(summary, units), units >= 7 && units <= 32);
  }
  EXPECT_FALSE(SharedFitsNowhere(summary, 0));
}

// The cache's summary is Summarize() of its cards after every kind of
// change: pods counted, recounted, assumed, forgotten, removed; nodes
// replaced.
TEST(NodeSummaryTest, CacheKeepsTheSummaryOfItsCards) {
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
