#include "extender/pod_locks.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

namespace gcushare::extender {
namespace {

TEST(PodLocksTest, SecondLockOfAKeyWaitsForTheFirst) {
  PodLocks locks;
  std::atomic<bool> second_held{false};
  std::thread second;
  {
    PodLocks::Guard first = locks.Lock("default/p");
    second = std::thread([&] {
      PodLocks::Guard guard = locks.Lock("default/p");
      second_held = true;
    });
    // The second caller is registered (waiting) before we let go; until
    // then it cannot hold the lock.
    while (locks.Users("default/p") < 2) std::this_thread::yield();
    EXPECT_FALSE(second_held.load());
  }
  second.join();
  EXPECT_TRUE(second_held.load());
  EXPECT_EQ(locks.Users("default/p"), 0u);  // Entry dropped.
}

TEST(PodLocksTest, OtherKeysDoNotWait) {
  PodLocks locks;
  PodLocks::Guard a = locks.Lock("default/a");
  PodLocks::Guard b = locks.Lock("default/b");  // Would deadlock if shared.
  EXPECT_EQ(locks.Users("default/a"), 1u);
  EXPECT_EQ(locks.Users("default/b"), 1u);
}

TEST(PodLocksTest, MovedGuardReleasesOnce) {
  PodLocks locks;
  {
    PodLocks::Guard a = locks.Lock("k");
    PodLocks::Guard b(std::move(a));
    EXPECT_EQ(locks.Users("k"), 1u);
  }
  EXPECT_EQ(locks.Users("k"), 0u);
  PodLocks::Guard again = locks.Lock("k");  // Not left locked.
  EXPECT_EQ(locks.Users("k"), 1u);
}

}  // namespace
}  // namespace gcushare::extender
