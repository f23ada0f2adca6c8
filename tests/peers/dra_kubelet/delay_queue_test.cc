#include "tests/peers/dra_kubelet/delay_queue.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/testing/fake_clock.h"

namespace gcushare::peers::dra_kubelet {
namespace {

using std::chrono::seconds;

// The queue's own thread is not started: RunDue() drives it.
class DelayQueueTest : public ::testing::Test {
 protected:
  base::FakeClock clock_;
  DelayQueue queue_{&clock_};
  std::vector<std::string> ran_;
};

TEST_F(DelayQueueTest, RunsOnlyWhenDue) {
  queue_.AddIfAbsent("a", seconds(30), [this] { ran_.emplace_back("a"); });
  EXPECT_EQ(queue_.RunDue(), 0);
  clock_.Advance(seconds(29));
  EXPECT_EQ(queue_.RunDue(), 0);
  EXPECT_TRUE(queue_.Pending("a"));
  clock_.Advance(seconds(1));
  EXPECT_EQ(queue_.RunDue(), 1);
  EXPECT_EQ(ran_, std::vector<std::string>{"a"});
  EXPECT_FALSE(queue_.Pending("a"));
}

TEST_F(DelayQueueTest, AddIfAbsentKeepsTheOriginalTime) {
  queue_.AddIfAbsent("a", seconds(30), [this] { ran_.emplace_back("first"); });
  clock_.Advance(seconds(20));
  EXPECT_FALSE(queue_.AddIfAbsent("a", seconds(30),
                                  [this] { ran_.emplace_back("2nd"); }));
  clock_.Advance(seconds(10));
  EXPECT_EQ(queue_.RunDue(), 1);
  EXPECT_EQ(ran_, std::vector<std::string>{"first"});
}

TEST_F(DelayQueueTest, ReplaceReschedulesAndCancelDrops) {
  queue_.AddIfAbsent("a", seconds(5), [this] { ran_.emplace_back("a"); });
  queue_.Replace("a", seconds(10), [this] { ran_.emplace_back("a2"); });
  queue_.AddIfAbsent("b", seconds(1), [this] { ran_.emplace_back("b"); });
  EXPECT_TRUE(queue_.Cancel("b"));
  EXPECT_FALSE(queue_.Cancel("b"));
  clock_.Advance(seconds(5));
  EXPECT_EQ(queue_.RunDue(), 0);
  clock_.Advance(seconds(5));
  EXPECT_EQ(queue_.RunDue(), 1);
  EXPECT_EQ(ran_, std::vector<std::string>{"a2"});
}

TEST_F(DelayQueueTest, EarliestFirstAndActionsMayReschedule) {
  queue_.AddIfAbsent("late", std::chrono::milliseconds(1500),
                     [this] { ran_.emplace_back("late"); });
  queue_.AddIfAbsent("early", seconds(1), [this] {
    ran_.emplace_back("early");
    queue_.Replace("again", seconds(0), [this] { ran_.emplace_back("again"); });
  });
  clock_.Advance(seconds(2));
  EXPECT_EQ(queue_.RunDue(), 3);
  EXPECT_EQ(ran_, (std::vector<std::string>{"early", "late", "again"}));
}

TEST_F(DelayQueueTest, StopDropsPendingActions) {
  queue_.AddIfAbsent("a", seconds(0), [this] { ran_.emplace_back("a"); });
  queue_.Stop();
  EXPECT_EQ(queue_.RunDue(), 0);
  EXPECT_FALSE(queue_.AddIfAbsent("b", seconds(0), [] {}));
  EXPECT_TRUE(ran_.empty());
}

}  // namespace
}  // namespace gcushare::peers::dra_kubelet
