#include "tests/peers/scheduler/scheduling_queue.h"

#include <gtest/gtest.h>

namespace gcushare::scheduler {
namespace {

using std::chrono::milliseconds;
using std::chrono::minutes;

const SchedulingQueue::TimePoint kT0{};

TEST(SchedulingQueueTest, FifoWithoutDuplicates) {
  SchedulingQueue queue;
  queue.Add("a");
  queue.Add("b");
  queue.Add("a");
  EXPECT_EQ(queue.active(), 2u);
  EXPECT_EQ(queue.Pop(milliseconds(0)), "a");
  EXPECT_EQ(queue.Pop(milliseconds(0)), "b");
  EXPECT_EQ(queue.Pop(milliseconds(0)), std::nullopt);
}

TEST(SchedulingQueueTest, FailedPodsWaitForAChange) {
  SchedulingQueue queue;
  queue.Add("p");
  ASSERT_EQ(queue.Pop(milliseconds(0)), "p");
  queue.Add("p", /*changed=*/false);  // Our own status write.
  queue.Done("p", /*bound=*/false, kT0);
  EXPECT_EQ(queue.parked(), 1u);
  queue.Add("p", /*changed=*/false);
  EXPECT_EQ(queue.Pop(milliseconds(0)), std::nullopt);
  queue.Add("p", /*changed=*/true);
  EXPECT_EQ(queue.Pop(milliseconds(0)), "p");
}

TEST(SchedulingQueueTest, ChangesDuringAnAttemptRequeue) {
  SchedulingQueue queue;
  queue.Add("p");
  ASSERT_EQ(queue.Pop(milliseconds(0)), "p");
  queue.MoveAllToActive();  // A node changed meanwhile.
  queue.Done("p", false, kT0);
  EXPECT_EQ(queue.parked(), 0u);
  EXPECT_EQ(queue.Pop(milliseconds(0)), "p");
  queue.Remove("p");  // Bound or deleted meanwhile.
  queue.Done("p", false, kT0);
  EXPECT_EQ(queue.parked(), 0u);
  EXPECT_EQ(queue.active(), 0u);
}

TEST(SchedulingQueueTest, ParkedPodsComeBack) {
  SchedulingQueue queue;
  queue.Add("a");
  ASSERT_EQ(queue.Pop(milliseconds(0)), "a");
  queue.Done("a", false, kT0);
  queue.Add("b");
  ASSERT_EQ(queue.Pop(milliseconds(0)), "b");
  queue.Done("b", false, kT0 + minutes(3));
  queue.FlushParked(kT0 + minutes(5), minutes(5));
  EXPECT_EQ(queue.Pop(milliseconds(0)), "a");
  EXPECT_EQ(queue.parked(), 1u);
  queue.MoveAllToActive();
  EXPECT_EQ(queue.Pop(milliseconds(0)), "b");
  queue.Shutdown();
  EXPECT_EQ(queue.Pop(milliseconds(10000)), std::nullopt);  // At once.
}

}  // namespace
}  // namespace gcushare::scheduler
