#include "base/mutex.h"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <thread>
#include <vector>

#include "base/thread_annotations.h"

namespace gcushare::base {
namespace {

// True when another thread can take a lock now: `try_lock` tries it (and
// `unlock` releases it after a success). The analysis cannot follow a lock
// taken in one callable and released in another: they opt out.
template <typename TryLock, typename Unlock>
bool TakenElsewhere(TryLock try_lock, Unlock unlock) {
  bool acquired = false;
  std::thread other([&] {
    if (try_lock()) {
      acquired = true;
      unlock();
    }
  });
  other.join();
  return acquired;
}

// True when another thread can take `mu` now (it is not held).
bool FreeElsewhere(Mutex& mu) {
  return TakenElsewhere([&]()
                            NO_THREAD_SAFETY_ANALYSIS { return mu.TryLock(); },
                        [&]() NO_THREAD_SAFETY_ANALYSIS { mu.Unlock(); });
}

// True when another thread can take `mu` for writing / reading now.
bool WritableElsewhere(SharedMutex& mu) {
  return TakenElsewhere([&]()
                            NO_THREAD_SAFETY_ANALYSIS { return mu.TryLock(); },
                        [&]() NO_THREAD_SAFETY_ANALYSIS { mu.Unlock(); });
}
bool ReadableElsewhere(SharedMutex& mu) {
  return TakenElsewhere(
      [&]() NO_THREAD_SAFETY_ANALYSIS { return mu.ReaderTryLock(); },
      [&]() NO_THREAD_SAFETY_ANALYSIS { mu.ReaderUnlock(); });
}

class Counter {
 public:
  void Add() {
    MutexLock lock(mu_);
    ++count_;
  }
  int count() {
    MutexLock lock(mu_);
    return count_;
  }

 private:
  Mutex mu_;
  int count_ GUARDED_BY(mu_) = 0;
};

TEST(MutexTest, ExcludesConcurrentWriters) {
  Counter counter;
  std::vector<std::thread> threads;
  threads.reserve(4);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 10000; ++i) counter.Add();
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(counter.count(), 40000);
}

TEST(MutexTest, TryLockFailsWhileHeldElsewhere) {
  Mutex mu;
  MutexLock lock(mu);
  EXPECT_FALSE(FreeElsewhere(mu));
}

TEST(MutexTest, MutexLockUnlockReleasesUntilLock) {
  Mutex mu;
  MutexLock lock(mu);
  lock.Unlock();
  EXPECT_TRUE(FreeElsewhere(mu));
  lock.Lock();
  EXPECT_FALSE(FreeElsewhere(mu));
}

TEST(MutexTest, MutexLockReleasedAtScopeEndAfterUnlockLock) {
  Mutex mu;
  {
    MutexLock lock(mu);
    lock.Unlock();
  }
  EXPECT_TRUE(FreeElsewhere(mu));
  { MutexLock lock(mu); }
  EXPECT_TRUE(FreeElsewhere(mu));
}

TEST(MutexTest, WorksWithConditionVariableAny) {
  Mutex mu;
  std::condition_variable_any cv;
  bool ready = false;
  std::thread producer([&] {
    std::lock_guard<Mutex> lock(mu);
    ready = true;
    cv.notify_all();
  });
  {
    std::unique_lock<Mutex> lock(mu);
    cv.wait(lock, [&] { return ready; });
    EXPECT_TRUE(ready);
  }
  producer.join();
}

TEST(SharedMutexTest, ReadersShareWritersExclude) {
  SharedMutex mu;
  {
    ReaderMutexLock first(mu);
    // A second reader gets in while the first holds it (a deadlock here
    // would time the test out).
    bool second_read = false;
    std::thread reader([&] {
      ReaderMutexLock second(mu);
      second_read = true;
    });
    reader.join();
    EXPECT_TRUE(second_read);
  }
  {
    ReaderMutexLock reader(mu);
    EXPECT_FALSE(WritableElsewhere(mu));
  }
  WriterMutexLock writer(mu);
  EXPECT_FALSE(ReadableElsewhere(mu));
}

class Mailbox {
 public:
  void Put(int value) {
    MutexLock lock(mu_);
    value_ = value;
    cv_.NotifyAll();
  }
  int Take() {
    MutexLock lock(mu_);
    cv_.Wait(lock, [this]() REQUIRES(mu_) { return value_ != 0; });
    return value_;
  }
  bool TakeFor(std::chrono::milliseconds timeout, int* out) {
    MutexLock lock(mu_);
    if (!cv_.WaitFor(lock, timeout,
                     [this]() REQUIRES(mu_) { return value_ != 0; })) {
      return false;
    }
    *out = value_;
    return true;
  }
  bool TakeUntil(std::chrono::steady_clock::time_point deadline, int* out) {
    MutexLock lock(mu_);
    if (!cv_.WaitUntil(lock, deadline,
                       [this]() REQUIRES(mu_) { return value_ != 0; })) {
      return false;
    }
    *out = value_;
    return true;
  }

 private:
  Mutex mu_;
  CondVar cv_;
  int value_ GUARDED_BY(mu_) = 0;
};

TEST(CondVarTest, WaitReturnsOnceThePredicateHolds) {
  Mailbox box;
  std::thread producer([&] { box.Put(7); });
  EXPECT_EQ(box.Take(), 7);
  producer.join();
}

TEST(CondVarTest, TimedWaitsReportThePredicate) {
  Mailbox box;
  int out = 0;
  EXPECT_FALSE(box.TakeFor(std::chrono::milliseconds(0), &out));
  EXPECT_FALSE(box.TakeUntil(std::chrono::steady_clock::now(), &out));
  box.Put(3);
  EXPECT_TRUE(box.TakeFor(std::chrono::milliseconds(0), &out));
  EXPECT_EQ(out, 3);
  out = 0;
  EXPECT_TRUE(box.TakeUntil(std::chrono::steady_clock::now(), &out));
  EXPECT_EQ(out, 3);
}

TEST(CondVarTest, WaitHoldsTheLockOnReturn) {
  Mutex mu;
  CondVar cv;
  bool flag = false;
  std::thread producer([&] {
    MutexLock lock(mu);
    flag = true;
    cv.NotifyAll();
  });
  {
    MutexLock lock(mu);
    while (!flag) cv.Wait(lock);
    EXPECT_FALSE(FreeElsewhere(mu));
  }
  producer.join();
  EXPECT_TRUE(FreeElsewhere(mu));
}

TEST(CondVarTest, TimedWaitWithoutNotificationTimesOutHoldingTheLock) {
  Mutex mu;
  CondVar cv;
  MutexLock lock(mu);
  // Spurious wake-ups may return true; a zero timeout with no notifier
  // must at least return holding the lock.
  cv.WaitFor(lock, std::chrono::milliseconds(0));
  EXPECT_FALSE(FreeElsewhere(mu));
}

}  // namespace
}  // namespace gcushare::base
