#include "binpack/fragmentation.h"

#include <gtest/gtest.h>

namespace gcushare::binpack {
namespace {

using placement::CardUsage;

// Two types, half the tasks each: 4 CPUs with 600 milli on one card, and
// 8 CPUs with one whole card.
Fragmentation TwoTypes() {
  TaskTypeCounts counts;
  counts[{4000, 600, 0}] = 1;
  counts[{8000, 0, 1}] = 1;
  return Fragmentation(counts, 100);
}

std::vector<CardUsage> Cards(std::vector<uint64_t> used) {
  std::vector<CardUsage> cards;
  for (uint32_t i = 0; i < used.size(); ++i) {
    cards.push_back({i, 1000, used[i], true, false});
  }
  return cards;
}

TEST(FragmentationTest, CardsNoTypeCanUseAreFragment) {
  Fragmentation frag = TwoTypes();
  ASSERT_EQ(frag.types().size(), 2u);
  // Card 0 has 500 free: too little for 600 and not whole; card 1 is free.
  auto terms = frag.Measure(16000, Cards({500, 0}));
  EXPECT_DOUBLE_EQ(terms.value, 0.5 * 500 + 0.5 * 500);
}

TEST(FragmentationTest, TooLittleCpuMakesAllFreeCardsFragment) {
  Fragmentation frag = TwoTypes();
  // 6 CPUs free: the 8-CPU type cannot come, so all 1500 free units are
  // fragment for it; the 4-CPU type still sees only card 0's 500.
  auto terms = frag.Measure(6000, Cards({500, 0}));
  EXPECT_DOUBLE_EQ(terms.value, 0.5 * 500 + 0.5 * 1500);
}

TEST(FragmentationTest, AfterMatchesMeasuringThePlacedNode) {
  Fragmentation frag = TwoTypes();
  auto terms = frag.Measure(16000, Cards({500, 0}));
  // 600 milli and 4 CPUs on card 1: 400 left there, 12 CPUs.
  const double after = frag.After(terms, 4000, {{1000, 400}});
  EXPECT_DOUBLE_EQ(after, frag.Measure(12000, Cards({500, 600})).value);
  EXPECT_DOUBLE_EQ(after, 0.5 * 900 + 0.5 * 900);
}

TEST(FragmentationTest, LeastPopularTypesBeyondTheThresholdAreLeftOut) {
  TaskTypeCounts counts;
  counts[{1000, 500, 0}] = 9;
  counts[{1000, 0, 2}] = 1;
  Fragmentation frag(counts, 90);
  ASSERT_EQ(frag.types().size(), 1u);
  EXPECT_EQ(frag.types()[0].units, 500u);
  EXPECT_DOUBLE_EQ(frag.types()[0].weight, 0.9);
}

}  // namespace
}  // namespace gcushare::binpack
