#include "base/backoff.h"

#include <gtest/gtest.h>

namespace gcushare::base {
namespace {

using std::chrono::milliseconds;
using std::chrono::nanoseconds;

TEST(BackoffTest, DoublesUpToTheCapWithoutJitter) {
  Backoff backoff({milliseconds(100), milliseconds(1000), 2.0, 0.0});
  EXPECT_EQ(backoff.Next(), milliseconds(100));
  EXPECT_EQ(backoff.Next(), milliseconds(200));
  EXPECT_EQ(backoff.Next(), milliseconds(400));
  EXPECT_EQ(backoff.Next(), milliseconds(800));
  EXPECT_EQ(backoff.Next(), milliseconds(1000));
  EXPECT_EQ(backoff.Next(), milliseconds(1000));
  backoff.Reset();
  EXPECT_EQ(backoff.Next(), milliseconds(100));
}

TEST(BackoffTest, JitterStretchesWithinBounds) {
  Backoff backoff({milliseconds(100), milliseconds(100000), 2.0, 0.5},
                  /*seed=*/42);
  nanoseconds base = milliseconds(100);
  bool saw_stretch = false;
  for (int i = 0; i < 10; ++i) {
    const nanoseconds delay = backoff.Next();
    EXPECT_GE(delay, base);
    EXPECT_LT(delay, base * 3 / 2 + nanoseconds(1));
    if (delay > base) saw_stretch = true;
    base *= 2;
  }
  EXPECT_TRUE(saw_stretch);
}

TEST(BackoffTest, ManyAttemptsDoNotOverflow) {
  Backoff backoff({milliseconds(1), milliseconds(5000), 10.0, 0.0});
  for (int i = 0; i < 500; ++i) backoff.Next();
  EXPECT_EQ(backoff.Next(), milliseconds(5000));
}

}  // namespace
}  // namespace gcushare::base
