#include "placement/request_mix.h"

#include <gtest/gtest.h>

namespace gcushare::placement {
namespace {

TEST(RequestHistoryTest, ANewMixOnlyOnceTheCountsMovedByA32nd) {
  RequestHistory history;
  auto empty = history.Mix();
  EXPECT_TRUE(empty->empty());
  history.Record(4, 0);
  auto first = history.Mix();
  EXPECT_NE(first, empty);  // From nothing, every request matters.
  EXPECT_FALSE(first->empty());
  for (int i = 1; i < 64; ++i) history.Record(4, 0);
  auto at64 = history.Mix();
  EXPECT_NE(at64, first);
  history.Record(8, 0);
  history.Record(0, 2);
  // 2 more on 64: not yet a 32nd; verdicts judged with `at64` stay valid.
  EXPECT_EQ(history.Mix(), at64);
  EXPECT_EQ(at64->SharedFragment(7), 0);  // No size above 4 known yet.
  history.Record(8, 0);                   // 3 on 64: more than a 32nd.
  auto at67 = history.Mix();
  EXPECT_NE(at67, at64);
  EXPECT_GT(at67->SharedFragment(7), 0);  // Sizes of 8 count now.
  history.Record(0, 0);                   // Asks for nothing: ignored.
  EXPECT_EQ(history.Mix(), at67);
}

// SharedFragment() is read from a table up to the largest size: the same
// values as the formula (free x share of sizes larger than free), and 0
// from the largest size up.
TEST(RequestMixTest, SharedFragmentIsFreeTimesShareOfLargerSizes) {
  const RequestMix mix(std::map<uint64_t, uint64_t>{{3, 2}, {7, 1}, {20, 1}},
                       std::map<uint32_t, uint64_t>{{1, 1}});
  for (uint64_t free = 0; free <= 40; ++free) {
    SCOPED_TRACE(free);
    double larger = 0;
    if (free < 3) larger += 2;
    if (free < 7) larger += 1;
    if (free < 20) larger += 1;
    EXPECT_DOUBLE_EQ(mix.SharedFragment(free),
                     static_cast<double>(free) * larger / 5);
  }
  EXPECT_EQ(RequestMix().SharedFragment(5), 0);
}

}  // namespace
}  // namespace gcushare::placement
