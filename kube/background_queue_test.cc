#include "kube/background_queue.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "testing/eventually.h"

namespace gcushare::kube {
namespace {

using std::chrono::hours;
using std::chrono::milliseconds;
using std::chrono::seconds;
using Outcome = BackgroundQueue::Outcome;

// Counts finished work and lets a test wait for a count.
class Done {
 public:
  void Add() {
    std::lock_guard<std::mutex> lock(mu_);
    ++n_;
    cv_.notify_all();
  }
  bool WaitFor(int n) {
    std::unique_lock<std::mutex> lock(mu_);
    return cv_.wait_for(lock, seconds(30), [&] { return n_ >= n; });
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int n_ = 0;
};

// A key that keeps failing waits out its backoff (an hour here) without
// holding up work added meanwhile, and Stop() ends the wait at once.
TEST(BackgroundQueueTest, RetryDelayDoesNotHoldUpNewWork) {
  base::RealClock clock;
  BackgroundQueue queue(&clock, {"test", 100, 100, {hours(1), hours(1)}});
  std::atomic<int> failing_runs{0};
  Done done;
  queue.Start();
  ASSERT_TRUE(queue.Add("failing", [&] {
    ++failing_runs;
    done.Add();
    return Outcome::kRetry;
  }));
  ASSERT_TRUE(done.WaitFor(1));
  ASSERT_TRUE(queue.Add("fresh", [&] {
    done.Add();
    return Outcome::kDone;
  }));
  EXPECT_TRUE(done.WaitFor(2));
  // "fresh" leaves the queue once its work has returned, a moment after it
  // counted itself done: wait for that state, bounded, not for a time.
  gcushare::testing::Eventually([&] { return queue.pending() == 1u; });
  EXPECT_EQ(queue.pending(), 1u);  // Only the failing key.
  queue.Stop();
  EXPECT_EQ(failing_runs.load(), 1);
}

TEST(BackgroundQueueTest, KeysAreDedupedAndTheQueueIsBounded) {
  base::RealClock clock;
  BackgroundQueue queue(&clock, {"test", 2, 100, {milliseconds(1)}});
  std::atomic<int> runs{0};
  auto work = [&] {
    ++runs;
    return Outcome::kDone;
  };
  EXPECT_TRUE(queue.Add("a", work));
  EXPECT_FALSE(queue.Add("a", work));  // Queued already.
  EXPECT_TRUE(queue.Add("b", work));
  EXPECT_FALSE(queue.Add("c", work));  // Full: dropped and counted.
  EXPECT_EQ(queue.dropped(), 1u);
  queue.Start();
  ASSERT_TRUE(queue.WaitIdle(seconds(30)));
  EXPECT_FALSE(queue.Add("a", work));  // Done already: remembered.
  EXPECT_TRUE(queue.Add("c", work));   // Dropped earlier: not remembered.
  ASSERT_TRUE(queue.WaitIdle(seconds(30)));
  queue.Stop();
  EXPECT_EQ(runs.load(), 3);
}

// Set-aside work runs again in rounds until it succeeds.
TEST(BackgroundQueueTest, RetriesUntilDone) {
  base::RealClock clock;
  BackgroundQueue queue(&clock,
                        {"test", 10, 10, {milliseconds(1), milliseconds(2)}});
  std::atomic<int> runs{0};
  queue.Add("x", [&] { return ++runs < 3 ? Outcome::kRetry : Outcome::kDone; });
  queue.Start();
  ASSERT_TRUE(queue.WaitIdle(seconds(30)));
  queue.Stop();
  EXPECT_EQ(runs.load(), 3);
}

}  // namespace
}  // namespace gcushare::kube
