#include "placement/node_summary.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "placement/card_allocator.h"

namespace gcushare::placement {
namespace {

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

}  // namespace
}  // namespace gcushare::placement
