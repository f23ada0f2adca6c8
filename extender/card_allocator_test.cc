#include "extender/card_allocator.h"

#include <gtest/gtest.h>

namespace gcushare::extender {
namespace {

std::vector<CardUsage> Node(int count, uint64_t total) {
  std::vector<CardUsage> cards;
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
  EXPECT_EQ(p->score, 5 + 5);  // 15/16 full.
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
  // untouched card.
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
  EXPECT_EQ(p->score, 7);  // Takes 2 of 3 free cards.
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
}  // namespace gcushare::extender
