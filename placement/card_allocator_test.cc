#include "placement/card_allocator.h"

#include <gtest/gtest.h>

namespace gcushare::placement {
namespace {

std::vector<CardUsage> Node(int count, uint64_t total) {
  std::vector<CardUsage> cards;
  cards.reserve(count);
  for (int i = 0; i < count; ++i) {
    cards.push_back({static_cast<uint32_t>(i), total, 0, true, false});
  }
  return cards;
}

// Applies a placement to the snapshot, as the extender's cache does.
void Apply(std::vector<CardUsage>& cards, const CardRequest& request,
           const Placement& placement) {
  for (uint32_t index : placement.cards) {
    if (request.cards > 0) {
      cards[index].whole = true;
    } else {
      cards[index].used_units += request.memory_units;
    }
  }
}

TEST(CardAllocatorTest, VendorManualScenario) {
  // 8 cards of 16 GiB; pods of 4, 8, 12 and 20 GiB.
  std::vector<CardUsage> node = Node(8, 16);
  auto p4 = Place(node, {4, 0}, Policy::kBinpack);
  ASSERT_TRUE(p4.ok());
  EXPECT_EQ(p4->cards, std::vector<uint32_t>{0});
  Apply(node, {4, 0}, *p4);
  auto p8 = Place(node, {8, 0}, Policy::kBinpack);
  ASSERT_TRUE(p8.ok());
  EXPECT_EQ(p8->cards, std::vector<uint32_t>{0});
  Apply(node, {8, 0}, *p8);
  auto p12 = Place(node, {12, 0}, Policy::kBinpack);
  ASSERT_TRUE(p12.ok());
  EXPECT_NE(p12->cards[0], 0u);
  Apply(node, {12, 0}, *p12);
  auto p20 = Place(node, {20, 0}, Policy::kBinpack);
  ASSERT_FALSE(p20.ok());
  EXPECT_EQ(p20.status().message(), kInsufficientMemoryReason);
}

TEST(CardAllocatorTest, BinpackPrefersTightestUsedCard) {
  std::vector<CardUsage> node = Node(4, 16);
  node[1].used_units = 10;  // 6 free
  node[2].used_units = 4;   // 12 free
  auto p = Place(node, {5, 0}, Policy::kBinpack);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->cards, std::vector<uint32_t>{1});
  EXPECT_EQ(p->score, 3);  // 19 of 64 units in use afterwards.
}

TEST(CardAllocatorTest, BinpackKeepsRoomForTheRequestsItHasSeen) {
  // Best fit would put 5 units on card 1 (6 free), stranding 1. When pods
  // of 6 units are common, card 1 is kept for one of them and card 2 (12
  // free, 7 left) takes the pod instead.
  std::vector<CardUsage> node = Node(3, 16);
  node[1].used_units = 10;
  node[2].used_units = 4;
  RequestHistory history;
  for (int i = 0; i < 5; ++i) history.Record(6, 0);
  history.Record(5, 0);
  auto learned = Place(node, {5, 0}, Policy::kBinpack, history.Mix().get());
  ASSERT_TRUE(learned.ok());
  EXPECT_EQ(learned->cards, std::vector<uint32_t>{2});
  auto blind = Place(node, {5, 0}, Policy::kBinpack);
  ASSERT_TRUE(blind.ok());
  EXPECT_EQ(blind->cards, std::vector<uint32_t>{1});
}

TEST(CardAllocatorTest, BinpackRanksUsedNodesFirst) {
  // After 4 and 8 units on card 0 of node a, 12 units rank higher on a
  // fresh card of a than on untouched node b.
  std::vector<CardUsage> a = Node(2, 16);
  a[0].used_units = 12;
  std::vector<CardUsage> b = Node(2, 16);
  RequestHistory history;
  history.Record(4, 0);
  history.Record(8, 0);
  auto on_a = Place(a, {12, 0}, Policy::kBinpack, history.Mix().get());
  auto on_b = Place(b, {12, 0}, Policy::kBinpack, history.Mix().get());
  ASSERT_TRUE(on_a.ok() && on_b.ok());
  EXPECT_EQ(on_a->cards, std::vector<uint32_t>{1});
  EXPECT_GT(on_a->rank, on_b->rank);
  EXPECT_GT(on_a->score, on_b->score);
}

TEST(CardAllocatorTest, WholeCardsGoWhereFewestUntouchedCardsStay) {
  // A pod of 2 whole cards takes the node with 2 untouched cards, keeping
  // the node with 4 whole for a larger request.
  std::vector<CardUsage> small = Node(2, 16);
  std::vector<CardUsage> large = Node(4, 16);
  RequestHistory history;
  history.Record(0, 4);
  history.Record(0, 2);
  auto on_small = Place(small, {0, 2}, Policy::kBinpack, history.Mix().get());
  auto on_large = Place(large, {0, 2}, Policy::kBinpack, history.Mix().get());
  ASSERT_TRUE(on_small.ok() && on_large.ok());
  EXPECT_GT(on_small->rank, on_large->rank);
}

// Cards 0..3 on NUMA nodes `numa` (-1: unknown).
std::vector<CardUsage> NumaNode(std::vector<int> numa) {
  std::vector<CardUsage> cards = Node(static_cast<int>(numa.size()), 16);
  for (size_t i = 0; i < numa.size(); ++i) {
    if (numa[i] >= 0) cards[i].numa = numa[i];
  }
  return cards;
}

TEST(CardAllocatorTest, MultiCardPodsGetCardsOfOneNumaNode) {
  // Interleaved NUMA nodes: 0 and 2 share NUMA node 0.
  auto placed = Place(NumaNode({0, 1, 0, 1}), {0, 2}, Policy::kBinpack);
  ASSERT_TRUE(placed.ok());
  EXPECT_EQ(placed->cards, (std::vector<uint32_t>{0, 2}));
  EXPECT_EQ(placed->rank[2], 1);
  // Card 1 is in use: NUMA node 1 (cards 2, 3) is the one with two free;
  // NUMA node 0 keeps none whole otherwise, so it is not split.
  std::vector<CardUsage> used = NumaNode({0, 0, 1, 1});
  used[1].used_units = 4;
  placed = Place(used, {0, 2}, Policy::kBinpack);
  ASSERT_TRUE(placed.ok());
  EXPECT_EQ(placed->cards, (std::vector<uint32_t>{2, 3}));
  // Of two NUMA nodes with room, the fuller one: the other stays whole.
  std::vector<CardUsage> six = Node(6, 16);
  for (uint32_t i = 0; i < 6; ++i) six[i].numa = i < 3 ? 0 : 1;
  six[0].used_units = 1;
  placed = Place(six, {0, 2}, Policy::kBinpack);
  ASSERT_TRUE(placed.ok());
  EXPECT_EQ(placed->cards, (std::vector<uint32_t>{1, 2}));
  // Unknown NUMA nodes (old layouts) or none with room: the first cards.
  placed = Place(NumaNode({-1, -1, -1, -1}), {0, 2}, Policy::kBinpack);
  ASSERT_TRUE(placed.ok());
  EXPECT_EQ(placed->cards, (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(placed->rank[2], 0);
  placed = Place(NumaNode({0, 1, 2, 3}), {0, 2}, Policy::kBinpack);
  ASSERT_TRUE(placed.ok());
  EXPECT_EQ(placed->cards, (std::vector<uint32_t>{0, 1}));
}

TEST(CardAllocatorTest, SpreadPrefersEmptiestCard) {
  std::vector<CardUsage> node = Node(3, 16);
  node[0].used_units = 8;
  auto p = Place(node, {4, 0}, Policy::kSpread);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->cards, std::vector<uint32_t>{1});
  EXPECT_EQ(p->score, 8);  // 1 - 4/16 = 0.75 -> 8.
}

TEST(CardAllocatorTest, ScoresOrderNodesByStranding) {
  // A node where the pod tops up a used card beats one where it breaks an
  // untouched card (the node is fuller afterwards: 5 against 3).
  std::vector<CardUsage> used = Node(2, 16);
  used[0].used_units = 8;
  std::vector<CardUsage> fresh = Node(2, 16);
  auto a = Place(used, {8, 0}, Policy::kBinpack);
  auto b = Place(fresh, {8, 0}, Policy::kBinpack);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_GT(a->score, b->score);
  EXPECT_LE(b->score, 4);
  // Spread ranks them the other way.
  a = Place(used, {8, 0}, Policy::kSpread);
  b = Place(fresh, {8, 0}, Policy::kSpread);
  EXPECT_LT(a->score, b->score);
}

TEST(CardAllocatorTest, UnhealthyAndWholeCardsAreSkipped) {
  std::vector<CardUsage> node = Node(3, 16);
  node[0].healthy = false;
  node[1].whole = true;
  auto p = Place(node, {16, 0}, Policy::kBinpack);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->cards, std::vector<uint32_t>{2});
  node[2].healthy = false;
  EXPECT_FALSE(Place(node, {1, 0}, Policy::kBinpack).ok());
}

TEST(CardAllocatorTest, WholeCardsNeedUntouchedCards) {
  std::vector<CardUsage> node = Node(4, 16);
  node[0].used_units = 1;  // A shared pod holds card 0.
  auto p = Place(node, {0, 2}, Policy::kBinpack);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->cards, (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(p->score, 5);  // 33 of 64 units in use afterwards.
  Apply(node, {0, 2}, *p);
  // Shared pods never land on a whole card, whole pods never on a used one.
  auto shared = Place(node, {15, 0}, Policy::kBinpack);
  ASSERT_TRUE(shared.ok());
  EXPECT_EQ(shared->cards, std::vector<uint32_t>{0});
  auto whole = Place(node, {0, 2}, Policy::kBinpack);
  ASSERT_FALSE(whole.ok());
  EXPECT_NE(whole.status().message().find("need 2"), std::string::npos);
  EXPECT_NE(whole.status().message().find("1 free"), std::string::npos);
}

TEST(CardAllocatorTest, TakingAllFreeCardsScoresTen) {
  auto p = Place(Node(2, 16), {0, 2}, Policy::kBinpack);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->score, 10);
}

TEST(CardAllocatorTest, BadRequests) {
  EXPECT_EQ(Place(Node(1, 16), {4, 1}, Policy::kBinpack).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(Place(Node(1, 16), {0, 0}, Policy::kBinpack).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_FALSE(Place({}, {1, 0}, Policy::kBinpack).ok());
}

TEST(CardAllocatorTest, ParsePolicy) {
  EXPECT_EQ(*ParsePolicy("binpack"), Policy::kBinpack);
  EXPECT_EQ(*ParsePolicy("spread"), Policy::kSpread);
  EXPECT_FALSE(ParsePolicy("random").ok());
}

}  // namespace
}  // namespace gcushare::placement
